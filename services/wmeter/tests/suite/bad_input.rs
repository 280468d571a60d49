//! Bad input gets a 400 (or 413) with a JSON error, never a 500.

use reqwest::Method;
use serde_json::{Value, json};
use wm_http::auth::Role;

use super::{count, meter_body, register, target::Target};

pub async fn bad_paths_and_queries_get_400(t: &Target) {
    register(t, "wmeters", meter_body(t.n(1))).await;
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
        // Discoveries name no meter: this filter once reached the SQL as a column.
        "/api/proxy/gateways/peripheral-discovery/0123456789abcdef01234567?meterId=0123456789abcdef01234567",
    ] {
        let response = t.get_as(Role::Operator, path).await;
        let status = response.status().as_u16();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        assert_eq!(status, 400, "{path}: {body}");
        assert!(body["code"].is_string() && body["message"].is_string(), "{path}: {body}");
    }
    let missing = t.get_as(Role::Operator, "/api/proxy/wmeters/0123456789abcdef01234567").await;
    assert_eq!(missing.status(), 404);
}

pub async fn bad_bodies_get_400_and_huge_ones_413(t: &Target) {
    let before = count(t, "/api/proxy/wmeters/count").await;
    let send = |body: reqwest::Body, content_type: &'static str| {
        let request = t
            .client
            .post(format!("{}/api/proxy/wmeters/", t.url))
            .bearer_auth(t.token(Role::Operator))
            .header("content-type", content_type)
            .body(body);
        async move { request.send().await.unwrap() }
    };
    let deep = format!("{{\"serialNumber\": {}1{}}}", "[".repeat(100_000), "]".repeat(100_000));
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"{not json".to_vec(), "application/json"),
        (b"[]".to_vec(), "application/json"),
        (
            json!({"serialNumber": "AB12CD34EF", "bleAddress": "AA:BB:CC:DD:EE:FF", "color": "red"}).to_string().into(),
            "application/json",
        ),
        (b"serialNumber=AB12CD34EF".to_vec(), "application/x-www-form-urlencoded"),
        (deep.into_bytes(), "application/json"),
        (b"{\"serialNumber\": \"AB12\xff\xfeCD\", \"bleAddress\": \"AA:BB:CC:DD:EE:FF\"}".to_vec(), "application/json"),
        (b"{\"serialNumber\": NaN, \"bleAddress\": \"AA:BB:CC:DD:EE:FF\"}".to_vec(), "application/json"),
        (b"\xef\xbb\xbf\x00\x00".to_vec(), "application/json"),
    ];
    for (body, content_type) in cases {
        let shown = String::from_utf8_lossy(&body[..body.len().min(60)]).into_owned();
        let response = send(body.into(), content_type).await;
        let status = response.status();
        let error: Value = response.json().await.unwrap();
        assert!(status == 400 || status == 413 || status == 415, "{shown}: {status} {error}");
        assert!(error["code"].is_string() && error["message"].is_string(), "{shown}: {error}");
    }
    let huge = json!({"serialNumber": "x".repeat(70 * 1024), "bleAddress": "AA:BB:CC:DD:EE:FF"}).to_string();
    let response = send(huge.into(), "application/json").await;
    assert_eq!(response.status(), 413);
    assert!(response.json::<Value>().await.unwrap()["code"].is_string());
    let gateway_patch = t
        .send_as(
            Role::Operator,
            Method::PATCH,
            "/api/proxy/gateways/0123456789abcdef01234567",
            Some(json!({"imei": "1"})),
        )
        .await;
    assert_eq!(gateway_patch.status(), 400, "imei is not editable");
    assert_eq!(count(t, "/api/proxy/wmeters/count").await, before, "nothing was written");
}
