//! Telemetry-ingest service: MQTT uplinks to events, telemetry reads,
//! shutdown answers.
//!
//! Gateways publish over MQTT (`docs/mqtt.md`). [`uplink`] parses each
//! message; [`ingest`] resolves it against the registered devices (known
//! from the registry's events, [`projections`]), keeps it once per gateway
//! message id, writes the read tables and stages its events in the outbox,
//! in one transaction, and only then acknowledges it to the broker. The
//! embedded mode runs its own broker ([`mqtt::broker`]).
//!
//! In the embedded mode `wmeter serve` mounts [`configure`] into the one
//! `App`; in the distributed mode `wmeter run telemetry-ingest` serves it
//! alone. Routes are registered as resources, never as scopes, because
//! services share the `/api/proxy` prefix.

pub mod ingest;
pub mod mqtt;
pub mod projections;
pub mod retention;
mod routes;
pub mod simulator;
pub mod storage;
pub use wm_uplink as uplink;

use std::{collections::HashMap, sync::Arc};

use actix_web::web;
use prometheus_client::registry::Registry;
use tokio_util::sync::CancellationToken;
use wm_domain::Clock;
use wm_eventlog::{EventLog, outbox::Relay, projection::Projection};
use wm_storage::{Db, Migration, Migrations};

use crate::{
    ingest::{Ingest, metrics::IngestMetrics},
    mqtt::{
        broker::{BrokerError, Durable, EmbeddedBroker},
        link::{Link, Login},
        settings::MqttSettings,
    },
};

/// The service's name, as given to `wmeter run`; also its outbox source.
pub const NAME: &str = "telemetry-ingest";

/// The topics ingest appends to (created at start-up: a Kafka cluster may
/// not create them on its own).
pub const TOPICS: &[&str] = &[
    wm_proto::topics::GATEWAY_STATUS,
    wm_proto::topics::GATEWAY_ACTIVITY,
    wm_proto::topics::BLE_ACTIVITY,
    wm_proto::topics::READINGS,
    wm_proto::topics::ALERTS,
    wm_proto::topics::DISCOVERIES,
    wm_proto::topics::SHUTDOWN,
    wm_proto::topics::COMMANDS,
    wm_proto::topics::DEAD_LETTERS,
    wm_proto::topics::AUDIT,
];

/// The service's tables. It also needs the outbox.
pub const MIGRATIONS: Migrations = Migrations {
    component: "telemetry-ingest",
    sqlite: &[
        Migration { version: 1, name: "telemetry", sql: include_str!("../migrations/sqlite/0001_telemetry.sql") },
        Migration {
            version: 2,
            name: "valve_commands",
            sql: include_str!("../migrations/sqlite/0002_valve_commands.sql"),
        },
        Migration {
            version: 3,
            name: "gateway_sessions",
            sql: include_str!("../migrations/sqlite/0003_gateway_sessions.sql"),
        },
    ],
    postgres: &[
        Migration { version: 1, name: "telemetry", sql: include_str!("../migrations/postgres/0001_telemetry.sql") },
        Migration {
            version: 2,
            name: "valve_commands",
            sql: include_str!("../migrations/postgres/0002_valve_commands.sql"),
        },
        Migration {
            version: 3,
            name: "gateway_sessions",
            sql: include_str!("../migrations/postgres/0003_gateway_sessions.sql"),
        },
    ],
};

/// The service's state and the relay that publishes its events; spawn
/// [`Relay::run`] beside the server.
pub fn build(
    db: Db,
    log: Arc<dyn EventLog>,
    clock: Arc<dyn Clock>,
    registry: &mut Registry,
) -> (web::Data<Ingest>, Relay) {
    let relay = Relay::new(db.clone(), log, NAME);
    let metrics = IngestMetrics::register(registry);
    let dispatch = Arc::new(tokio::sync::Notify::new());
    (web::Data::new(Ingest { db, relay: relay.clone(), clock, metrics, dispatch }), relay)
}

/// The service's projections, in rebuild order.
pub fn projections(db: &Db) -> Vec<Arc<dyn Projection>> {
    vec![
        Arc::new(projections::DirectoryProjection { db: db.clone() }),
        Arc::new(projections::TelemetryProjection { db: db.clone() }),
    ]
}

/// The service's part of the OpenAPI document.
pub fn openapi() -> utoipa::openapi::OpenApi {
    <routes::TelemetryApi as utoipa::OpenApi>::openapi()
}

/// Mounts this service's routes with its state.
pub fn configure(state: web::Data<Ingest>) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(state);
        routes::configure(cfg);
    }
}

/// The MQTT side, running: the embedded broker if any, and the connection
/// ingest consumes uplinks from (and publishes commands on).
#[derive(Debug)]
pub struct Mqtt {
    pub broker: Option<EmbeddedBroker>,
    pub link: Link,
    /// The login of gateways on the embedded broker.
    pub gateway_login: Option<(String, String)>,
}

#[derive(Debug, thiserror::Error)]
pub enum MqttError {
    #[error(transparent)]
    Broker(#[from] BrokerError),
    #[error("{0}: {1}")]
    Settings(&'static str, String),
}

/// Starts the embedded broker when configured, connects, and spawns the
/// ingest worker; everything stops with `stop`.
pub async fn start_mqtt(settings: &MqttSettings, ingest: Ingest, stop: CancellationToken) -> Result<Mqtt, MqttError> {
    let (broker, gateway_login, login, filter) = if settings.is_embedded() {
        let listen =
            settings.listen.parse().map_err(|_| MqttError::Settings("mqtt.listen", settings.listen.clone()))?;
        let service = (settings.username.clone(), settings.password.clone().unwrap_or_else(random_secret));
        let gateways =
            (settings.gateway_username.clone(), settings.gateway_password.clone().unwrap_or_else(random_secret));
        let filter = uplink::topic::UPLINKS.to_owned();
        let durable = Durable {
            client_id: settings.client_id.clone(),
            username: service.0.clone(),
            filter: filter.clone(),
            window: 4 * settings.batch,
        };
        let broker = EmbeddedBroker::start(listen, HashMap::from([service.clone(), gateways.clone()]), durable).await?;
        let addr = broker.addr();
        let login = Login {
            host: addr.ip().to_string(),
            port: addr.port(),
            client_id: settings.client_id.clone(),
            username: service.0,
            password: service.1,
        };
        (Some(broker), Some(gateways), login, filter)
    } else {
        let (host, port) = settings.broker_address().map_err(|(key, message)| MqttError::Settings(key, message))?;
        let password = settings.password.clone().unwrap_or_default();
        let filter = match settings.shared_group.as_str() {
            "" => uplink::topic::UPLINKS.to_owned(),
            group => format!("$share/{group}/{}", uplink::topic::UPLINKS),
        };
        let login =
            Login { host, port, client_id: settings.client_id.clone(), username: settings.username.clone(), password };
        (None, None, login, filter)
    };
    let (link, deliveries) = Link::subscribe(&login, filter, stop.clone());
    tokio::spawn(ingest::valve::dispatch(ingest.clone(), link.clone(), stop.clone()));
    tokio::spawn(ingest::worker::run(ingest, link.clone(), deliveries, settings.batch, stop));
    Ok(Mqtt { broker, link, gateway_login })
}

/// A password for a login nobody configured: 24 random URL-safe characters.
fn random_secret() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    (0..24).map(|_| char::from(ALPHABET[rand::random_range(0..ALPHABET.len())])).collect()
}
