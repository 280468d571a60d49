//! Bad input gets a 400 (or 413) with a JSON error, never a 500.

use reqwest::Method;
use serde_json::{Value, json};
use wm_http::auth::Role;

use super::{meter_body, register};
use crate::helpers::spawn_each;

#[tokio::test]
async fn bad_paths_and_queries_get_400() {
    let app = spawn_each(|_| {}).await.remove(0);
    register(&app, "wmeters", meter_body(1)).await;
    for path in [
        "/api/proxy/gateways/not-an-id-at-all0000000",
        "/api/proxy/gateways/xyz",
        "/api/proxy/wmeters/0123456789abcdef0123456",
        "/api/proxy/gateways?start=yesterday",
        "/api/proxy/wmeters?start=2025-13-45",
        "/api/proxy/wmeters?max=100000",
        "/api/proxy/wmeters?max=-1",
        "/api/proxy/wmeters/lost?reverse=maybe",
        "/api/proxy/wmeters/serial/TOO-SHORT",
        "/api/proxy/fieldcheck/AB12CD34EF?fieldName=deviceName",
        "/api/proxy/fieldcheck/AB12CD34EF",
        "/api/proxy/fieldcheck/123?fieldName=imei",
        "/api/proxy/search",
        "/api/proxy/search?q=x&radius=far",
        "/api/proxy/search?q=x&radius=-5",
    ] {
        let response = app.get_as(Role::Operator, path).await;
        let status = response.status().as_u16();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        assert_eq!(status, 400, "{path}: {body}");
        assert!(body["code"].is_string() && body["message"].is_string(), "{path}: {body}");
    }
    let missing = app.get_as(Role::Operator, "/api/proxy/wmeters/0123456789abcdef01234567").await;
    assert_eq!(missing.status(), 404);
}

#[tokio::test]
async fn bad_bodies_get_400_and_huge_ones_413() {
    let app = spawn_each(|_| {}).await.remove(0);
    let send = |body: reqwest::Body, content_type: &'static str| {
        let request = app
            .client
            .post(format!("{}/api/proxy/wmeters/", app.url))
            .bearer_auth(app.token(Role::Operator))
            .header("content-type", content_type)
            .body(body);
        async move { request.send().await.unwrap() }
    };
    for (body, content_type) in [
        ("{not json".to_owned(), "application/json"),
        ("[]".to_owned(), "application/json"),
        (
            json!({"serialNumber": "AB12CD34EF", "bleAddress": "AA:BB:CC:DD:EE:FF", "color": "red"}).to_string(),
            "application/json",
        ),
        ("serialNumber=AB12CD34EF".to_owned(), "application/x-www-form-urlencoded"),
    ] {
        let response = send(body.clone().into(), content_type).await;
        let status = response.status();
        let error: Value = response.json().await.unwrap();
        assert!(status == 400 || status == 415, "{body}: {status} {error}");
        assert!(error["code"].is_string(), "{body}: {error}");
    }
    let huge = json!({"serialNumber": "x".repeat(70 * 1024), "bleAddress": "AA:BB:CC:DD:EE:FF"}).to_string();
    let response = send(huge.into(), "application/json").await;
    assert_eq!(response.status(), 413);
    assert!(response.json::<Value>().await.unwrap()["code"].is_string());
    let gateway_patch = app
        .send_as(
            Role::Operator,
            Method::PATCH,
            "/api/proxy/gateways/0123456789abcdef01234567",
            Some(json!({"imei": "1"})),
        )
        .await;
    assert_eq!(gateway_patch.status(), 400, "imei is not editable");
    assert_eq!(app.json("/api/proxy/wmeters/count", 200).await, json!({"count": 0}), "nothing was written");
}
