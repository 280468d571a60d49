//! Every API route needs an access token, an unknown one is a JSON 404, and
//! a known one asked with another method a JSON 405 with `Allow`.

use reqwest::Method;
use serde_json::{Value, json};
use wm_http::auth::Role;

use super::target::Target;

pub async fn api_routes_need_an_access_token(t: &Target) {
    for path in ["/api/proxy/", "/api/no/such/thing", "/api"] {
        let response = t.get(path).await;
        assert_eq!(response.status(), 401, "{path}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], "unauthorized", "{path}");
    }
    let forged = t.client.get(format!("{}/api/proxy/", t.url)).bearer_auth("a.b.c").send().await.unwrap();
    assert_eq!(forged.status(), 401);
}

pub async fn unknown_api_route_is_a_json_404(t: &Target) {
    let response = t.get_as(Role::Viewer, "/api/no/such/thing").await;
    assert_eq!(response.status(), 404);
    assert_eq!(response.json::<Value>().await.unwrap(), json!({"code": "not_found", "message": "No such route"}));
}

pub async fn a_route_asked_with_a_method_it_does_not_take_is_a_405(t: &Target) {
    let cases = [
        (Method::DELETE, "/api/proxy/gateways", "GET"),
        (Method::GET, "/api/proxy/wmeters/", "POST"),
        (Method::PATCH, "/api/proxy/gateways/count", "GET"),
        (Method::PUT, "/api/proxy/gateways/0123456789abcdef01234567", "GET, PATCH, DELETE"),
        (Method::GET, "/api/notifications/user", "DELETE"),
        (Method::GET, "/api/auth/refresh", "POST"),
    ];
    for (method, path, allow) in cases {
        let response = t.send_as(Role::Admin, method.clone(), path, None).await;
        assert_eq!(response.status(), 405, "{method} {path}");
        let mut allowed: Vec<&str> = response.headers()["allow"].to_str().unwrap().split(", ").collect();
        let mut expected: Vec<&str> = allow.split(", ").collect();
        allowed.sort_unstable();
        expected.sort_unstable();
        assert_eq!(allowed, expected, "{method} {path}");
        assert_eq!(response.json::<Value>().await.unwrap()["code"], "method_not_allowed", "{method} {path}");
    }
    let hexless = t.get_as(Role::Viewer, "/api/proxy/wmeters/critical/not-an-id").await;
    assert_eq!(hexless.status(), 404, "a parameter no route takes is not a method problem");
}
