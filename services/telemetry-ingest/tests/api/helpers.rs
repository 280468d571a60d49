//! Telemetry ingest on a port of its own, with its MQTT side, as `wmeter`
//! runs it; and the devices it knows, registered as the registry does.

use serde_json::Value;
use wm_domain::DeviceId;
use wm_proto::{
    Envelope, Payload,
    v1::{GatewayRegistered, MeterRegistered},
};
use wm_storage::{Backend, with_pool};
use wm_telemetry_ingest::MqttSettings;
pub use wm_test_support::{devices::address, eventually, gateway::Gateway};
use wm_test_support::{
    mqtt::Mosquitto,
    service::{self, Harness, Mount, ServiceApp},
};

pub type TestApp = ServiceApp;

/// The logins (username = password) of a test's own Mosquitto.
const SERVICE_LOGIN: &str = "wmeter-test";
const GATEWAY_LOGIN: &str = "gateway-test";

/// Ingest alone, once per database backend, with its MQTT side, its
/// projections and its outbox relay running.
pub async fn spawn_each() -> Vec<TestApp> {
    service::spawn_each(async |h: &mut Harness| {
        h.log.ensure_topics(wm_telemetry_ingest::TOPICS).await.unwrap();
        let (state, relay) = wm_telemetry_ingest::build(h.db.clone(), h.log.clone(), h.clock.clone(), &mut h.metrics);
        let mut settings = MqttSettings { listen: "127.0.0.1:0".to_owned(), ..MqttSettings::default() };
        if h.backend() == Backend::Postgres {
            let broker = Mosquitto::start(&[(SERVICE_LOGIN, SERVICE_LOGIN), (GATEWAY_LOGIN, GATEWAY_LOGIN)])
                .expect("Mosquitto, with the other test servers");
            settings.broker = broker.url();
            (settings.username, settings.password) = (SERVICE_LOGIN.to_owned(), Some(SERVICE_LOGIN.to_owned()));
            settings.shared_group = "wmeter-ingest".to_owned();
            h.broker = Some((broker.addr, (GATEWAY_LOGIN.to_owned(), GATEWAY_LOGIN.to_owned())));
            h.keep(broker);
        }
        let mqtt = wm_telemetry_ingest::mqtt::start(&settings, state.get_ref().clone(), h.stop_token()).await.unwrap();
        if let (Some(broker), Some(login)) = (&mqtt.broker, &mqtt.gateway_login) {
            h.broker = Some((broker.addr(), login.clone()));
        }
        h.keep(mqtt);
        Mount::new(wm_telemetry_ingest::openapi(), move |cfg| wm_telemetry_ingest::configure(state.clone())(cfg))
            .migrations([&wm_telemetry_ingest::MIGRATIONS])
            .projections(wm_telemetry_ingest::projections(&h.db))
            .relays([relay])
    })
    .await
}

/// Registers gateway `GW{n:08}` as the registry does; returns its id.
pub async fn gateway(app: &TestApp, n: u32) -> String {
    let id = DeviceId::new().to_string();
    let registered = GatewayRegistered {
        id: id.clone(),
        serial_number: format!("GW{n:08}"),
        device_name: format!("GTW-GW{n:08}"),
        ..GatewayRegistered::default()
    };
    app.publish(&[Envelope::new(&id, "test-user", Payload::GatewayRegistered(registered))]).await;
    id
}

/// Registers meter `WM{n:08}`, heard at [`address`]`(0xC0, n)`, as the
/// registry does; returns its id.
pub async fn meter(app: &TestApp, n: u32) -> String {
    let id = DeviceId::new().to_string();
    let registered = MeterRegistered {
        id: id.clone(),
        serial_number: format!("WM{n:08}"),
        device_name: format!("W-WM{n:08}"),
        ble_address: address(0xC0, n).to_uppercase(),
        ..MeterRegistered::default()
    };
    app.publish(&[Envelope::new(&id, "test-user", Payload::MeterRegistered(registered))]).await;
    id
}

/// Waits until ingest knows `gateways` and `meters` (its directory is fed
/// by the registry's events).
pub async fn known(app: &TestApp, gateways: i64, meters: i64) {
    eventually("ingest knows the devices", || async {
        let count = |table: &'static str| {
            let sql = format!("SELECT COUNT(*) FROM {table}");
            async move {
                with_pool!(app.db(), pool => sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql)).fetch_one(pool).await)
                    .unwrap()
            }
        };
        (count("ingest_gateways").await >= gateways && count("ingest_meters").await >= meters).then_some(())
    })
    .await;
}

/// `path`'s JSON once `ready` holds for it.
pub async fn json_when(app: &TestApp, path: &str, ready: impl Fn(&Value) -> bool) -> Value {
    eventually(path, || async {
        let value = app.json(path, 200).await;
        ready(&value).then_some(value)
    })
    .await
}
