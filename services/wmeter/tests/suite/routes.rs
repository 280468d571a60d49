//! Every API route needs an access token, and an unknown one is a JSON 404.

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
