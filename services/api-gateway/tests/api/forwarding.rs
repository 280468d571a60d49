//! What the gateway of the distributed mode answers for a service it cannot
//! reach, and for a path no service describes. (Forwarding to live
//! services is in `wmeter`'s tests: it needs them.)

use serde_json::Value;
use wm_http::auth::Role as UserRole;

use crate::helpers::spawn_gateway;

#[tokio::test]
async fn a_service_that_is_down_gives_a_json_503_and_unknown_paths_a_404() {
    let gateway = spawn_gateway("http://127.0.0.1:9").await;
    let response = gateway.get_as(UserRole::Viewer, "/api/proxy/gateways/count").await;
    assert_eq!(response.status(), 503);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "service_unavailable");
    assert_eq!(body["message"], "The device-registry service is unavailable; try again shortly");

    let unknown = gateway.get_as(UserRole::Viewer, "/api/proxy/nothing/here").await;
    assert_eq!(unknown.status(), 404);
    assert_eq!(unknown.json::<Value>().await.unwrap()["code"], "not_found");
    assert_eq!(gateway.get_as(UserRole::Viewer, "/api/proxy/").await.status(), 200, "uptime is the gateway's own");
    let settings: serde_json::Value =
        gateway.get_as(UserRole::Viewer, "/api/dashboard/settings").await.json().await.unwrap();
    assert_eq!(
        settings,
        serde_json::json!({"mapTilesUrl": "https://tiles.example/{z}/{x}/{y}.png", "mapAttribution": "© Example"}),
        "the dashboard's settings are the gateway's own"
    );
}
