//! The API description: served without a token, valid OpenAPI 3.1, listing
//! every route of the spec, and every route it lists exists.

use reqwest::Method;
use serde_json::{Value, json};
use wm_http::auth::Role;

use super::target::Target;

/// Every call of the spec (§7).
const SPEC_ROUTES: &[(&str, &str)] = &[
    ("post", "/api/auth/login"),
    ("post", "/api/auth/refresh"),
    ("post", "/api/auth/logout"),
    ("get", "/api/proxy/"),
    ("get", "/api/proxy/gateways/count"),
    ("get", "/api/proxy/gateways/lost/count"),
    ("get", "/api/proxy/wmeters/count"),
    ("get", "/api/proxy/wmeters/unhealthy/count"),
    ("get", "/api/proxy/wmeters/lost/count"),
    ("get", "/api/proxy/wmeters/down/count"),
    ("get", "/api/proxy/wmeters/critical/count"),
    ("get", "/api/proxy/gateways"),
    ("get", "/api/proxy/gateways/{id}"),
    ("get", "/api/proxy/gateways/serial/{serial}"),
    ("patch", "/api/proxy/gateways/{id}"),
    ("delete", "/api/proxy/gateways/{id}"),
    ("post", "/api/proxy/gateways/"),
    ("get", "/api/proxy/gateways/lost"),
    ("get", "/api/proxy/wmeters"),
    ("get", "/api/proxy/wmeters/{id}"),
    ("get", "/api/proxy/wmeters/serial/{serial}"),
    ("patch", "/api/proxy/wmeters/{id}"),
    ("delete", "/api/proxy/wmeters/{id}"),
    ("post", "/api/proxy/wmeters/"),
    ("get", "/api/proxy/wmeters/lost"),
    ("get", "/api/proxy/wmeters/down"),
    ("get", "/api/proxy/wmeters/critical"),
    ("get", "/api/proxy/fieldcheck/{value}"),
    ("get", "/api/proxy/search"),
    ("get", "/api/proxy/gateways/gateway-activity"),
    ("get", "/api/proxy/gateways/gateway-activity/{id}"),
    ("get", "/api/proxy/gateways/ble-activity/{id}"),
    ("get", "/api/proxy/gateways/peripheral-discovery/{id}"),
    ("get", "/api/proxy/wmeters/consumption/{id}"),
    ("get", "/api/proxy/wmeters/gateway-activity/{id}"),
    ("get", "/api/proxy/wmeters/ble-activity/{id}"),
    ("get", "/api/proxy/wmeters/critical/{id}"),
    ("get", "/api/proxy/wmeters/shutdown-requests/{id}"),
    ("patch", "/api/proxy/wmeters/shutdown-requests/{id}"),
    ("get", "/api/notifications"),
    ("get", "/api/notifications/{userId}"),
    ("delete", "/api/notifications/{deviceName}"),
    ("delete", "/api/notifications/user"),
];

pub async fn the_document_is_public_and_lists_every_spec_route(t: &Target) {
    let response = t.get("/api/docs/openapi.json").await;
    assert_eq!(response.status(), 200, "no token needed");
    let doc: Value = response.json().await.unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"), "{}", doc["openapi"]);
    assert_eq!(doc["info"]["title"], "w-meter API");
    let schemes = &doc["components"]["securitySchemes"];
    for (name, format) in [("bearer", "JWT"), ("apiKey", "wmk_<prefix>_<secret>")] {
        assert_eq!((&schemes[name]["type"], &schemes[name]["scheme"]), (&json!("http"), &json!("bearer")), "{name}");
        assert_eq!(schemes[name]["bearerFormat"], format, "{name}");
    }
    for (method, path) in SPEC_ROUTES {
        let operation = &doc["paths"][path][method];
        assert!(operation.is_object(), "{method} {path} is not described");
        assert!(operation["responses"].as_object().is_some_and(|r| !r.is_empty()), "{method} {path} has no responses");
    }
    for schema in ["GatewayJson", "MeterJson", "ApiError", "RegisterGateway", "RegisterMeter"] {
        assert!(doc["components"]["schemas"][schema].is_object(), "{schema}");
    }
    let ui = t.get("/api/docs/").await;
    assert_eq!(ui.status(), 200);
    assert!(ui.text().await.unwrap().contains("swagger"), "Swagger UI, served from the binary");
    let bare = t.client.get(format!("{}/api/docs", t.url)).send().await.unwrap();
    assert_eq!(bare.url().path(), "/api/docs/", "redirected to the UI");
}

pub async fn every_described_route_exists(t: &Target) {
    let doc: Value = t.get("/api/docs/openapi.json").await.json().await.unwrap();
    for (path, operations) in doc["paths"].as_object().unwrap() {
        let concrete = path
            .replace("{id}", "0123456789abcdef01234567")
            .replace("{serial}", "AB12CD34EF")
            .replace("{value}", "AB12CD34EF");
        for method in operations.as_object().unwrap().keys() {
            let method: Method = method.to_uppercase().parse().unwrap();
            let body = [Method::POST, Method::PATCH].contains(&method).then(|| json!({}));
            let response = t.send_as(Role::Operator, method.clone(), &concrete, body).await;
            let status = response.status().as_u16();
            if response.headers().get("content-type").is_some_and(|t| t == "text/event-stream") {
                continue; // a stream never ends: its status says it is routed
            }
            let error: Value = response.json().await.unwrap_or(Value::Null);
            assert_ne!(status, 405, "{method} {path}");
            assert!(!(status == 404 && error["message"] == "No such route"), "{method} {path} is not routed");
        }
    }
}

/// The operations that take no access token: signing in, and the two that
/// work from the refresh cookie.
const PUBLIC: [&str; 3] = ["/api/auth/login", "/api/auth/refresh", "/api/auth/logout"];

/// Every operation the document describes, called without a token, is
/// refused with 401, unless it is one of the few public ones. Generated from
/// the document, so a new route cannot forget its token check, nor its
/// `security` in the document.
pub async fn every_described_route_needs_a_token(t: &Target) {
    let doc: Value = t.get("/api/docs/openapi.json").await.json().await.unwrap();
    let mut checked = 0;
    for (path, operations) in doc["paths"].as_object().unwrap() {
        let concrete = path
            .replace("{id}", "0123456789abcdef01234567")
            .replace("{serial}", "AB12CD34EF")
            .replace("{value}", "AB12CD34EF");
        for (method, operation) in operations.as_object().unwrap() {
            if PUBLIC.contains(&path.as_str()) {
                continue;
            }
            assert_eq!(
                operation["security"],
                json!([{"bearer": []}, {"apiKey": []}]),
                "{method} {path} must declare its token and key"
            );
            let method: Method = method.to_uppercase().parse().unwrap();
            let mut request = t.client.request(method.clone(), format!("{}{concrete}", t.url));
            if [Method::POST, Method::PATCH].contains(&method) {
                request = request.json(&json!({}));
            }
            let response = request.send().await.unwrap();
            assert_eq!(response.status(), 401, "{method} {path}");
            assert_eq!(response.json::<Value>().await.unwrap()["code"], "unauthorized", "{method} {path}");
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} operations described");
}
