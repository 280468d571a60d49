use serde_json::{Value, json};

use crate::helpers::spawn_app;

#[tokio::test]
async fn healthz_answers_ok() {
    let app = spawn_app().await;
    let response = app.get("/healthz").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<Value>().await.unwrap(), json!({"status": "ok"}));
}

#[tokio::test]
async fn readyz_checks_the_database_and_the_event_log() {
    let app = spawn_app().await;
    let response = app.get("/readyz").await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.json::<Value>().await.unwrap(),
        json!({"status": "ready", "checks": {"database": "ok", "event_log": "ok"}})
    );
}

#[tokio::test]
async fn metrics_count_requests_by_route_pattern() {
    let app = spawn_app().await;
    assert_eq!(app.get("/healthz").await.status(), 200);
    let response = app.get("/metrics").await;
    assert_eq!(response.status(), 200);
    let body = response.text().await.unwrap();
    assert!(
        body.contains(r#"wmeter_http_requests_total{method="GET",route="/healthz",status="200",service="embedded"} 1"#)
            || body.contains(
                r#"wmeter_http_requests_total{service="embedded",method="GET",route="/healthz",status="200"} 1"#
            ),
        "{body}"
    );
}

#[tokio::test]
async fn uptime_is_whole_seconds() {
    let app = spawn_app().await;
    let response = app.get("/api/proxy/").await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert!(body["uptime"].is_u64(), "{body}");
    assert!(body["uptime"].as_u64().unwrap() < 60);
}

#[tokio::test]
async fn unknown_api_route_is_a_json_404() {
    let app = spawn_app().await;
    let response = app.get("/api/no/such/thing").await;
    assert_eq!(response.status(), 404);
    assert_eq!(response.json::<Value>().await.unwrap(), json!({"code": "not_found", "message": "No such route"}));
}

#[tokio::test]
async fn graceful_stop_closes_the_listener() {
    let app = spawn_app().await;
    let url = app.url.clone();
    app.stop().await.unwrap();
    let after = reqwest::Client::new().get(format!("{url}/healthz")).send().await;
    assert!(after.is_err(), "nothing listens after a graceful stop");
}
