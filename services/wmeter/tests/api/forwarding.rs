//! `wmeter run gateway`: every `/api` path goes to the service that owns
//! it, answers (SSE included) stream back, and a service that is down gives
//! a JSON 503. The services here are one embedded app, so the test needs no
//! external server.

use std::time::Duration;

use futures::StreamExt;
use reqwest::Method;
use serde_json::{Value, json};
use wm_auth::users;
use wm_http::auth::Role as UserRole;

use crate::helpers::{spawn_app, spawn_gateway};

#[tokio::test]
async fn registry_and_telemetry_routes_answer_through_the_gateway() {
    let services = spawn_app().await;
    let Some(gateway) = spawn_gateway(&services.url).await else { return };
    let body = json!({
        "serialNumber": "FW00000001", "imei": "350000000000001", "phoneNumber": "0600000001",
        "bleAddress": "AA:00:00:00:00:01", "macAddress": "AB:00:00:00:00:01", "gpsCoordinates": [4.8, 45.7],
    });
    let created = gateway.send_as(UserRole::Operator, Method::POST, "/api/proxy/gateways/", Some(body)).await;
    assert_eq!(created.status(), 201);
    let id = created.json::<Value>().await.unwrap()["_id"].as_str().unwrap().to_owned();

    let direct = services.json(&format!("/api/proxy/gateways/{id}"), 200).await;
    let through = gateway.json(&format!("/api/proxy/gateways/{id}"), 200).await;
    assert_eq!(through, direct);
    assert_eq!(gateway.json("/api/proxy/gateways?max=5&reverse=false&start=2000-01-01", 200).await[0]["_id"], id);
    assert_eq!(gateway.json(&format!("/api/proxy/gateways/gateway-activity/{id}?max=5"), 200).await, json!([]));
    assert_eq!(gateway.json("/api/proxy/wmeters/critical/count", 200).await, json!({"count": 0}));

    let invalid = gateway.send_as(UserRole::Operator, Method::POST, "/api/proxy/wmeters/", Some(json!({}))).await;
    assert_eq!(invalid.status(), 400);
    assert_eq!(invalid.json::<Value>().await.unwrap()["code"], "validation_failed");
}

#[tokio::test]
async fn sign_in_and_refresh_pass_their_cookie_through() {
    let services = spawn_app().await;
    users::create(services.db(), "ann", "a-long-password", UserRole::Operator).await.unwrap();
    let Some(gateway) = spawn_gateway(&services.url).await else { return };
    let login = gateway
        .client
        .post(format!("{}/api/auth/login", gateway.url))
        .json(&json!({"username": "ann", "password": "a-long-password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), 200);
    let cookie = login.headers().get("set-cookie").unwrap().to_str().unwrap().split(';').next().unwrap().to_owned();
    let refreshed = gateway
        .client
        .post(format!("{}/api/auth/refresh", gateway.url))
        .header("Cookie", cookie)
        .header("X-WMeter-Refresh", "1")
        .send()
        .await
        .unwrap();
    assert_eq!(refreshed.status(), 200);
    assert!(refreshed.json::<Value>().await.unwrap()["accessToken"].is_string());
}

#[tokio::test]
async fn the_notification_stream_flows_through_as_it_is_written() {
    let services = spawn_app().await;
    let Some(gateway) = spawn_gateway(&services.url).await else { return };
    let response = gateway
        .client
        .get(format!("{}/api/notifications", gateway.url))
        .bearer_auth(gateway.token(UserRole::Operator))
        .header("Accept", "text/event-stream")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
    // The stream never ends: its first bytes must arrive on their own.
    let mut body = response.bytes_stream();
    let first = tokio::time::timeout(Duration::from_secs(5), body.next()).await.expect("SSE bytes in time");
    let text = String::from_utf8(first.unwrap().unwrap().to_vec()).unwrap();
    assert!(text.contains("retry: 1000"), "{text}");
}
