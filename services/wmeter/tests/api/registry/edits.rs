//! Editing and deleting devices.

use reqwest::Method;
use serde_json::{Value, json};
use wm_http::auth::Role;
use wm_proto::{Envelope, Payload, v1::GatewayActivity};

use super::{gateway_body, meter_body, register};
use crate::helpers::{TestApp, eventually, spawn_each};

async fn patch(app: &TestApp, path: &str, body: Value) -> reqwest::Response {
    app.send_as(Role::Operator, Method::PATCH, path, Some(body)).await
}

#[tokio::test]
async fn a_gateway_s_phone_and_position_change() {
    for app in spawn_each(|_| {}).await {
        let id = register(&app, "gateways", gateway_body(1)).await;
        register(&app, "gateways", gateway_body(2)).await;
        let path = format!("/api/proxy/gateways/{id}");
        let changed = patch(&app, &path, json!({"phoneNumber": "0712345678", "gpsCoordinates": "-1.55, 47.21"})).await;
        assert_eq!(changed.status(), 200);
        let changed: Value = changed.json().await.unwrap();
        assert_eq!(
            (&changed["phoneNumber"], &changed["gpsCoordinates"]),
            (&json!("0712345678"), &json!([-1.55, 47.21]))
        );
        assert_eq!(app.json(&path, 200).await, changed);
        let same = patch(&app, &path, json!({"phoneNumber": "0712345678"})).await;
        assert_eq!(same.json::<Value>().await.unwrap(), changed, "nothing changed, nothing written");

        let taken = patch(&app, &path, json!({"phoneNumber": "0600000002"})).await;
        assert_eq!(taken.status(), 409);
        assert_eq!(
            taken.json::<Value>().await.unwrap()["fields"],
            json!({"phoneNumber": "Phone number already in use"})
        );
        let bad = patch(&app, &path, json!({"phoneNumber": "07123"})).await;
        assert_eq!(bad.status(), 400);
        assert_eq!(
            bad.json::<Value>().await.unwrap()["fields"],
            json!({"phoneNumber": "Phone number must be exactly 10 digits"})
        );
        let fieldcheck = "/api/proxy/fieldcheck/0600000001?fieldName=phoneNumber";
        assert_eq!(app.json(fieldcheck, 200).await, json!({"exists": false}), "the old number is free again");
        let readonly =
            app.send_as(Role::Viewer, Method::PATCH, &path, Some(json!({"phoneNumber": "0799999999"}))).await;
        assert_eq!(readonly.status(), 403);
    }
}

#[tokio::test]
async fn a_meter_moves() {
    for app in spawn_each(|_| {}).await {
        let id = register(&app, "wmeters", meter_body(1)).await;
        let path = format!("/api/proxy/wmeters/{id}");
        let moved = patch(&app, &path, json!({"gpsCoordinates": [4.8357, 45.764043]})).await;
        assert_eq!(moved.status(), 200);
        assert_eq!(moved.json::<Value>().await.unwrap()["gpsCoordinates"], json!([4.8357, 45.764043]));
        let phone = patch(&app, &path, json!({"phoneNumber": "0712345678"})).await;
        assert_eq!(phone.status(), 400, "a meter has no phone number");
        let missing =
            patch(&app, "/api/proxy/wmeters/0123456789abcdef01234567", json!({"gpsCoordinates": [1, 2]})).await;
        assert_eq!(missing.status(), 404);
    }
}

#[tokio::test]
async fn only_a_device_never_seen_may_be_deleted() {
    for app in spawn_each(|_| {}).await {
        let unseen = register(&app, "gateways", gateway_body(1)).await;
        let seen = register(&app, "gateways", gateway_body(2)).await;
        let meter = register(&app, "wmeters", meter_body(1)).await;
        let activity = GatewayActivity {
            gateway_id: seen.clone(),
            meter_id: None,
            mqtt_topic: "wmeter/v1/gw/GW00000002/heartbeat".into(),
            action: "heartbeat".into(),
            message_id: 1,
        };
        app.publish(&[Envelope::new(&seen, "gateway:GW00000002", Payload::GatewayActivity(activity))]).await;
        let path = format!("/api/proxy/gateways/{seen}");
        eventually("the gateway is seen", || async {
            (!app.json(&path, 200).await["lastseen"].is_null()).then_some(())
        })
        .await;

        let refused = app.send_as(Role::Operator, Method::DELETE, &path, None).await;
        assert_eq!(refused.status(), 409);
        assert_eq!(refused.json::<Value>().await.unwrap()["code"], "device_seen");
        let viewer = app.send_as(Role::Viewer, Method::DELETE, &format!("/api/proxy/gateways/{unseen}"), None).await;
        assert_eq!(viewer.status(), 403);
        for (kind, id) in [("gateways", &unseen), ("wmeters", &meter)] {
            let path = format!("/api/proxy/{kind}/{id}");
            assert_eq!(app.send_as(Role::Operator, Method::DELETE, &path, None).await.status(), 204, "{kind}");
            app.json(&path, 404).await;
            assert_eq!(app.send_as(Role::Operator, Method::DELETE, &path, None).await.status(), 404, "{kind} again");
        }
        assert_eq!(app.json("/api/proxy/gateways/count", 200).await, json!({"count": 1}));
        assert_eq!(app.json("/api/proxy/wmeters/count", 200).await, json!({"count": 0}));
        register(&app, "gateways", gateway_body(1)).await;
    }
}
