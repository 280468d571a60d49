//! Telemetry ingest on a port of its own, with its MQTT side, as `wmeter`
//! runs it; and the devices it knows, registered as the registry does.

use serde_json::Value;
use wm_storage::Backend;
use wm_telemetry_ingest::{AnalyticsSettings, IngestSettings, MqttSettings, identities::Revocations};
pub use wm_test_support::{
    devices::address,
    eventually,
    gateway::{Gateway, known},
};
use wm_test_support::{
    devices::{gateway_registered, meter_registered},
    mqtt::{Mosquitto, SERVICE_LOGIN, SHARED_GROUP},
    service::{self, Harness, Mount, ServiceApp},
};

pub type TestApp = ServiceApp;

/// Ingest alone, once per database backend, with its MQTT side, its
/// projections, its leak detectors and its outbox relay running.
pub async fn spawn_each() -> Vec<TestApp> {
    spawn_each_with(AnalyticsSettings::default()).await
}

/// [`spawn_each`] with these `analytics` settings; the detectors sweep
/// silent meters five times a second (by the test's clock).
pub async fn spawn_each_with(analytics: AnalyticsSettings) -> Vec<TestApp> {
    service::spawn_each(async |h: &mut Harness| {
        h.log.ensure_topics(wm_telemetry_ingest::TOPICS).await.unwrap();
        let settings = IngestSettings { analytics: analytics.clone(), ..IngestSettings::default() };
        let detectors = wm_telemetry_ingest::detectors(&settings);
        let relay = wm_telemetry_ingest::relay(h.db.clone(), h.log.clone());
        let revocations = Revocations::default();
        let projections = wm_telemetry_ingest::projections(&h.db, &settings, h.clock.clone(), (&relay, &revocations));
        let plumbing = (relay.clone(), revocations);
        let state = wm_telemetry_ingest::build(h.db.clone(), plumbing, h.clock.clone(), settings, &mut h.metrics);
        // The shared gateway login: these tests are about ingest, not the
        // device plane (wmeter's tests/api/device_plane/).
        let mut settings = MqttSettings {
            listen: "127.0.0.1:0".to_owned(),
            gateway_password: Some("test-gateway-password".to_owned()),
            ..MqttSettings::default()
        };
        if h.backend() == Backend::Postgres {
            let broker = Mosquitto::for_wmeter().expect("Mosquitto, with the other test servers");
            settings.broker = broker.url();
            (settings.username, settings.password) = (SERVICE_LOGIN.to_owned(), Some(SERVICE_LOGIN.to_owned()));
            settings.shared_group = SHARED_GROUP.to_owned();
            h.broker = Some(broker.gateway_broker());
            h.keep(broker);
        }
        let mqtt =
            wm_telemetry_ingest::mqtt::start(&settings, None, state.get_ref().clone(), h.stop_token()).await.unwrap();
        if let (Some(broker), Some(login)) = (&mqtt.broker, &mqtt.gateway_login) {
            h.broker = Some((broker.addr(), login.clone()));
        }
        h.keep(mqtt);
        if let Some(detectors) = detectors {
            let (swept, every) = (state.get_ref().clone(), std::time::Duration::from_millis(200));
            h.spawn(move |stop| wm_telemetry_ingest::detectors::run(detectors, swept, every, stop));
        }
        Mount::new(wm_telemetry_ingest::openapi(), move |cfg| wm_telemetry_ingest::configure(state.clone())(cfg))
            .migrations([&wm_telemetry_ingest::MIGRATIONS])
            .projections(projections)
            .relays([relay])
    })
    .await
}

/// Registers gateway `GW{n:08}` as the registry does; returns its id.
pub async fn gateway(app: &TestApp, n: u32) -> String {
    let (id, registered) = gateway_registered(n);
    app.publish(&[registered]).await;
    id
}

/// Registers meter `WM{n:08}`, heard at [`address`]`(0xC0, n)`, as the
/// registry does; returns its id.
pub async fn meter(app: &TestApp, n: u32) -> String {
    let (id, registered) = meter_registered(n);
    app.publish(&[registered]).await;
    id
}

/// `path`'s JSON once `ready` holds for it.
pub async fn json_when(app: &TestApp, path: &str, ready: impl Fn(&Value) -> bool) -> Value {
    eventually(path, || async {
        let value = app.json(path, 200).await;
        ready(&value).then_some(value)
    })
    .await
}

/// A user created in auth, as its event tells ingest; waits until ingest
/// knows them (an alarm can then be assigned to them).
pub async fn user(app: &TestApp, user_id: &str, username: &str, role: wm_proto::v1::Role) {
    use wm_proto::{Envelope, Payload, v1::UserCreated};
    let created = UserCreated { user_id: user_id.to_owned(), username: username.to_owned(), role: role.into() };
    app.publish(&[Envelope::new(user_id, "cli", Payload::UserCreated(created))]).await;
    if role != wm_proto::v1::Role::Viewer {
        json_when(app, "/api/alarms/assignees", |users| {
            users.as_array().is_some_and(|all| all.iter().any(|u| u["userId"] == user_id))
        })
        .await;
    }
}

/// A request as the user `user_id` with `role`: the status and the JSON body.
pub async fn send_for(
    app: &TestApp,
    (user_id, role): (&str, wm_http::auth::Role),
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request =
        app.client.request(method, format!("{}{path}", app.url)).bearer_auth(app.token_for(user_id, role));
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}
