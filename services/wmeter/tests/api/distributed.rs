//! One service per process, over PostgreSQL and the real Kafka-protocol
//! broker: each role serves its own health, readiness and metrics.

use serde_json::{Value, json};
use wm_eventlog::{EventLogSettings, kafka::KafkaSettings};
use wm_http::auth::Role as UserRole;
use wm_test_support::TestDb;
use wmeter::{
    Role, Service,
    config::{Mode, Settings},
};

use crate::helpers::{TestApp, spawn_gateway, spawn_with, until_ready};

/// A new PostgreSQL database and the settings of a service on it and on
/// the test Kafka broker, in a namespace of its own (its topics and groups
/// are its own, whatever other tests run); `None` (skip) without those
/// servers.
async fn distributed() -> Option<(TestDb, Settings)> {
    let kafka = wm_test_support::log::kafka()?;
    let db = TestDb::postgres().await?;
    let mut settings = Settings::default();
    settings.database = db.settings().clone();
    settings.event_log = EventLogSettings::Kafka(KafkaSettings { session_timeout_ms: 6_000, ..kafka });
    Some((db, settings))
}

async fn spawn_service(service: Service) -> Option<TestApp> {
    let (db, settings) = distributed().await?;
    Some(spawn_with(settings, Mode::Distributed, Role::Service(service), Some(db)).await)
}

#[tokio::test]
async fn a_service_is_ready_once_postgres_and_kafka_answer_and_its_consumers_joined() {
    let Some(app) = spawn_service(Service::DeviceRegistry).await else { return };
    assert_eq!(
        until_ready(&app).await,
        json!({"status": "ready", "checks": {
            "database": "ok", "event_log": "ok", "token_versions": "ok", "consumers": "ok",
        }})
    );
    assert_eq!(app.get("/healthz").await.status(), 200);
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(metrics.contains(r#"service="device-registry""#), "{metrics}");
}

#[tokio::test]
async fn readyz_answers_503_naming_the_failing_dependency() {
    let Some(app) = spawn_service(Service::DeviceRegistry).await else { return };
    until_ready(&app).await;
    app.break_database().await;
    let response = app.get("/readyz").await;
    assert_eq!(response.status(), 503);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "not_ready");
    assert_eq!(body["checks"]["event_log"], "ok");
    assert_ne!(body["checks"]["database"], "ok", "{body}");
    assert_eq!(app.get("/healthz").await.status(), 200, "liveness does not depend on the database");
}

#[tokio::test]
async fn a_service_mounts_only_its_own_routes() {
    let Some(app) = spawn_service(Service::Notification).await else { return };
    for path in ["/api/proxy/", "/", "/gateways"] {
        let response = app.get_as(UserRole::Admin, path).await;
        assert_eq!(response.status(), 404, "{path} belongs to the gateway");
        assert_eq!(response.json::<Value>().await.unwrap()["code"], "not_found");
    }
}

#[tokio::test]
async fn the_gateway_needs_no_database_and_follows_the_auth_topic() {
    let Some(app) = spawn_gateway("http://127.0.0.1:9").await else { return };
    let ready = app.get("/readyz").await;
    assert_eq!(ready.status(), 200);
    let checks = ready.json::<Value>().await.unwrap()["checks"].clone();
    assert_eq!(
        checks.as_object().map(|c| c.keys().cloned().collect::<Vec<_>>()),
        Some(vec!["event_log".to_owned(), "token_versions".to_owned()]),
        "no database: {checks}"
    );
    assert_eq!(app.get("/api/proxy/").await.status(), 401, "the gateway checks tokens too");
    assert_eq!(app.get_as(UserRole::Viewer, "/api/proxy/").await.status(), 200);
    assert!(app.get("/").await.text().await.unwrap().contains("<div id=\"root\">"));
}

#[tokio::test]
async fn two_auth_replicas_enforce_one_login_throttle() {
    let Some((db, mut settings)) = distributed().await else { return };
    settings.auth.sessions.max_failures_per_user = 4;
    let first = spawn_with(settings.clone(), Mode::Distributed, Role::Service(Service::Auth), Some(db)).await;
    let second = spawn_with(settings, Mode::Distributed, Role::Service(Service::Auth), None).await;
    let attempt = |app: &TestApp| {
        let url = format!("{}/api/auth/login", app.url);
        let client = app.client.clone();
        async move {
            let body = json!({"username": "nobody-in-particular", "password": "a wrong password"});
            client.post(url).json(&body).send().await.unwrap().status().as_u16()
        }
    };
    // Four failures, two on each replica: the fifth is throttled on both.
    for app in [&first, &second, &first, &second] {
        assert_eq!(attempt(app).await, 401);
    }
    assert_eq!(attempt(&first).await, 429);
    assert_eq!(attempt(&second).await, 429, "the other replica counts the same failures");
}

#[tokio::test]
async fn a_stopped_service_s_kafka_consumers_have_left_their_groups() {
    let Some(app) = spawn_service(Service::DeviceRegistry).await else { return };
    until_ready(&app).await;
    app.stop().await.unwrap();
    // Each member leaves from a thread of its own, which would die with the
    // process: a stopped service waited for them, so its partitions go to
    // the replicas still running at once.
    assert_eq!(wm_eventlog::kafka::closing(), 0, "a Kafka consumer still closing after the service stopped");
}
