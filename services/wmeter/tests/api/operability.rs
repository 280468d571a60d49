use serde_json::{Value, json};
use wm_http::auth::Role;

use crate::helpers::{eventually, spawn_app, spawn_each, until_ready};

#[tokio::test]
async fn healthz_answers_ok() {
    let app = spawn_app().await;
    let response = app.get("/healthz").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<Value>().await.unwrap(), json!({"status": "ok"}));
}

#[tokio::test]
async fn readyz_checks_the_database_the_event_log_and_the_consumers() {
    let app = spawn_app().await;
    assert_eq!(
        until_ready(&app).await,
        json!({"status": "ready", "checks": {
            "database": "ok", "event_log": "ok", "token_versions": "ok", "consumers": "ok",
        }})
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

/// The `wmeter_sse_streams` value in `/metrics`.
async fn open_streams(app: &crate::helpers::TestApp) -> Option<String> {
    let body = app.get("/metrics").await.text().await.unwrap();
    body.lines().find(|l| l.starts_with("wmeter_sse_streams{")).and_then(|l| l.rsplit(' ').next()).map(str::to_owned)
}

#[tokio::test]
async fn metrics_count_open_notification_streams() {
    let apps = spawn_each(|s| s.notifications.heartbeat_secs = 1).await;
    let app = &apps[0];
    assert_eq!(open_streams(app).await.as_deref(), Some("0"));
    let stream = app
        .client
        .get(format!("{}/api/notifications", app.url))
        .bearer_auth(app.token(Role::Viewer))
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 200);
    assert_eq!(open_streams(app).await.as_deref(), Some("1"));
    drop(stream);
    // The server notices a gone client at its next write, the heartbeat.
    eventually("the stream to be counted closed", || async {
        (open_streams(app).await.as_deref() == Some("0")).then_some(())
    })
    .await;
}

#[tokio::test]
async fn metrics_show_each_projections_consumer_lag() {
    for app in spawn_each(|_| {}).await {
        let line = eventually("a lag reading", || async {
            let body = app.get("/metrics").await.text().await.unwrap();
            body.lines()
                .find(|l| l.starts_with("wmeter_consumer_lag{") && l.contains(r#"group="device-registry.state""#))
                .map(str::to_owned)
        })
        .await;
        assert!(line.ends_with(" 0"), "an idle app has nothing left to consume: {line}");
    }
}

#[tokio::test]
async fn uptime_is_whole_seconds() {
    let app = spawn_app().await;
    let response = app.get_as(Role::Viewer, "/api/proxy/").await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert!(body["uptime"].is_u64(), "{body}");
    assert!(body["uptime"].as_u64().unwrap() < 60);
}

#[tokio::test]
async fn sign_in_routes_and_the_dashboard_need_no_token() {
    let app = spawn_app().await;
    for path in wm_http::auth::PUBLIC_ROUTES {
        let response = app.client.post(format!("{}{path}", app.url)).send().await.unwrap();
        assert_ne!(response.status(), 401, "{path} must be reachable without a token");
    }
    assert_eq!(app.get("/").await.status(), 200);
    assert_eq!(app.get("/healthz").await.status(), 200);
}

#[tokio::test]
async fn graceful_stop_closes_the_listener() {
    let app = spawn_app().await;
    let url = app.url.clone();
    app.stop().await.unwrap();
    let after = wm_http::client::client().get(format!("{url}/healthz")).send().await;
    assert!(after.is_err(), "nothing listens after a graceful stop");
}
