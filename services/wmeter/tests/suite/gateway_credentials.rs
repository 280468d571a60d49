//! A gateway's MQTT credentials over HTTP (docs/device-plane.md): a secret
//! is shown once, only operators and admins handle them, a rotation revokes
//! the last one, and a revocation is kept in the list. What the broker does
//! with them is tests/api/device_plane/.

use reqwest::Method;
use serde_json::{Value, json};
use wm_http::auth::Role;

use super::{admin::send, gateway_body, target::Target};

/// Registers a gateway; its id and upper-case serial number.
pub async fn register(t: &Target, n: u32) -> (String, String) {
    let body = gateway_body(n);
    let response = t.send_as(Role::Operator, Method::POST, "/api/proxy/gateways/", Some(body.clone())).await;
    assert_eq!(response.status(), 201);
    let id = response.json::<Value>().await.unwrap()["_id"].as_str().unwrap().to_owned();
    (id, body["serialNumber"].as_str().unwrap().to_ascii_uppercase())
}

/// Issues the gateway `id` a secret as an operator: the credential, and the
/// secret.
pub async fn issue_secret(t: &Target, id: &str) -> (Value, String) {
    let path = format!("/api/devices/gateways/{id}/credentials");
    let response = t.send_as(Role::Operator, Method::POST, &path, Some(json!({"kind": "secret"}))).await;
    assert_eq!(response.status(), 201);
    assert_eq!(response.headers()["cache-control"], "no-store");
    let issued: Value = response.json().await.unwrap();
    (issued["credential"].clone(), issued["secret"].as_str().unwrap().to_owned())
}

async fn listed(t: &Target, id: &str) -> Vec<Value> {
    let path = format!("/api/devices/gateways/{id}/credentials");
    let response = t.send_as(Role::Admin, Method::GET, &path, None).await;
    assert_eq!(response.status(), 200);
    let text = response.text().await.unwrap();
    assert!(!text.contains("secret\":\"") && !text.contains("$7$"), "nothing that proves a credential: {text}");
    serde_json::from_str::<Value>(&text).unwrap()["credentials"].as_array().unwrap().clone()
}

pub async fn a_secret_is_shown_once_and_a_rotation_revokes_the_last_one(t: &Target) {
    let (id, serial) = register(t, t.n(1)).await;
    assert!(listed(t, &id).await.is_empty());
    let (first, secret) = issue_secret(t, &id).await;
    assert_eq!(secret.len(), 48);
    assert!(secret.bytes().all(|b| b.is_ascii_lowercase() || (b'2'..=b'7').contains(&b)), "{secret}");
    assert_eq!((first["kind"].as_str(), first["username"].as_str()), (Some("secret"), Some(serial.as_str())));
    assert_eq!((first["revokedAt"].clone(), first["fingerprint"].clone()), (Value::Null, Value::Null));
    assert_eq!(listed(t, &id).await, std::slice::from_ref(&first));

    let (second, again) = issue_secret(t, &id).await;
    assert_ne!(again, secret);
    let list = listed(t, &id).await;
    assert_eq!(list.len(), 2);
    assert_eq!((list[0]["id"].clone(), list[0]["revokedAt"].clone()), (second["id"].clone(), Value::Null));
    assert_eq!(list[1]["id"], first["id"]);
    assert!(list[1]["revokedAt"].is_string(), "the rotation revoked the first: {list:?}");

    let revoke = format!("/api/devices/gateways/{id}/credentials/{}/revoke", second["id"].as_str().unwrap());
    for _ in 0..2 {
        assert_eq!(t.send_as(Role::Operator, Method::POST, &revoke, None).await.status(), 204, "idempotent");
    }
    assert!(listed(t, &id).await.iter().all(|c| c["revokedAt"].is_string()));
}

pub async fn only_operators_and_admins_handle_credentials_and_bad_requests_say_why(t: &Target) {
    let (id, _) = register(t, t.n(2)).await;
    let path = format!("/api/devices/gateways/{id}/credentials");
    let viewer = t.token(Role::Viewer);
    assert_eq!(send(t, &viewer, Method::GET, &path, None).await.status(), 403);
    assert_eq!(send(t, &viewer, Method::POST, &path, Some(json!({"kind": "secret"}))).await.status(), 403);

    let error = |response: reqwest::Response| async move {
        let status = response.status().as_u16();
        let body: Value = response.json().await.unwrap();
        (status, body["code"].as_str().unwrap_or_default().to_owned(), body)
    };
    let (status, _, body) =
        error(t.send_as(Role::Operator, Method::POST, &path, Some(json!({"kind": "pin"}))).await).await;
    assert_eq!((status, body["fields"]["kind"].as_str()), (400, Some("The kind must be secret or certificate")));
    let unknown = "/api/devices/gateways/65f0a1b2c3d4e5f6abcdef99/credentials";
    let (status, code, _) = error(t.send_as(Role::Operator, Method::GET, unknown, None).await).await;
    assert_eq!((status, code.as_str()), (404, "not_found"));
    let (status, code, _) =
        error(t.send_as(Role::Operator, Method::POST, unknown, Some(json!({"kind": "secret"}))).await).await;
    assert_eq!((status, code.as_str()), (404, "not_found"));
    let bad = "/api/devices/gateways/not-an-id/credentials";
    assert_eq!(t.send_as(Role::Operator, Method::GET, bad, None).await.status(), 400);
    let revoke = format!("{path}/65f0a1b2c3d4e5f6abcdef98/revoke");
    let (status, code, _) = error(t.send_as(Role::Operator, Method::POST, &revoke, None).await).await;
    assert_eq!((status, code.as_str()), (404, "not_found"));
}
