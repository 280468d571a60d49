//! Editing devices: what may change, uniqueness, validation and roles.

use reqwest::Method;
use serde_json::{Value, json};
use wm_http::auth::Role;

use super::{gateway_body, meter_body, register, target::Target};

async fn patch(t: &Target, path: &str, body: Value) -> reqwest::Response {
    t.send_as(Role::Operator, Method::PATCH, path, Some(body)).await
}

pub async fn a_gateway_s_phone_and_position_change(t: &Target) {
    let (n, other) = (t.n(1), t.n(2));
    let id = register(t, "gateways", gateway_body(n)).await;
    register(t, "gateways", gateway_body(other)).await;
    let path = format!("/api/proxy/gateways/{id}");
    let new_phone = format!("07{n:08}");
    let changed = patch(t, &path, json!({"phoneNumber": new_phone, "gpsCoordinates": "-1.55, 47.21"})).await;
    assert_eq!(changed.status(), 200);
    let changed: Value = changed.json().await.unwrap();
    assert_eq!((&changed["phoneNumber"], &changed["gpsCoordinates"]), (&json!(new_phone), &json!([-1.55, 47.21])));
    assert_eq!(t.json(&path, 200).await, changed);
    let same = patch(t, &path, json!({"phoneNumber": new_phone})).await;
    assert_eq!(same.json::<Value>().await.unwrap(), changed, "nothing changed, nothing written");

    let taken = patch(t, &path, json!({"phoneNumber": format!("06{other:08}")})).await;
    assert_eq!(taken.status(), 409);
    assert_eq!(taken.json::<Value>().await.unwrap()["fields"], json!({"phoneNumber": "Phone number already in use"}));
    let bad = patch(t, &path, json!({"phoneNumber": "07123"})).await;
    assert_eq!(bad.status(), 400);
    assert_eq!(
        bad.json::<Value>().await.unwrap()["fields"],
        json!({"phoneNumber": "Phone number must be exactly 10 digits"})
    );
    let fieldcheck = format!("/api/proxy/fieldcheck/06{n:08}?fieldName=phoneNumber");
    assert_eq!(t.json(&fieldcheck, 200).await, json!({"exists": false}), "the old number is free again");
    let readonly =
        t.send_as(Role::Viewer, Method::PATCH, &path, Some(json!({"phoneNumber": format!("08{n:08}")}))).await;
    assert_eq!(readonly.status(), 403);
}

pub async fn a_meter_moves(t: &Target) {
    let id = register(t, "wmeters", meter_body(t.n(1))).await;
    let path = format!("/api/proxy/wmeters/{id}");
    let moved = patch(t, &path, json!({"gpsCoordinates": [4.8357, 45.764043]})).await;
    assert_eq!(moved.status(), 200);
    assert_eq!(moved.json::<Value>().await.unwrap()["gpsCoordinates"], json!([4.8357, 45.764043]));
    let phone = patch(t, &path, json!({"phoneNumber": "0712345678"})).await;
    assert_eq!(phone.status(), 400, "a meter has no phone number");
    let missing = patch(t, "/api/proxy/wmeters/0123456789abcdef01234567", json!({"gpsCoordinates": [1, 2]})).await;
    assert_eq!(missing.status(), 404);
}
