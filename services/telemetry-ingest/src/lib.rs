//! Telemetry-ingest service: MQTT uplinks to events, telemetry reads,
//! shutdown answers and the valve commands that carry them out.
//!
//! Gateways publish over MQTT (`docs/mqtt.md`). `wm_uplink` parses each
//! message; [`ingest`] resolves it against the registered devices (known
//! from the registry's events, [`projections`]), keeps it once per gateway
//! message id, writes the read tables and stages its events in the outbox,
//! in one transaction, and only then acknowledges it to the broker
//! ([`mqtt`]; the embedded mode runs `wm_mqtt`'s broker). Operators answer
//! shutdown requests ([`actions`]); the aggregates of [`domain`] decide,
//! and the dispatcher sends the valve commands ([`dispatch`]).
//!
//! In the embedded mode `wmeter serve` mounts [`configure`] into the one
//! `App`; in the distributed mode `wmeter run telemetry-ingest` serves it
//! alone. Routes are registered as resources, never as scopes, because
//! services share the `/api/proxy` prefix.

pub mod actions;
mod csv;
pub mod detectors;
pub mod dispatch;
pub mod domain;
mod error;
pub mod identities;
pub mod ingest;
pub mod mqtt;
pub mod projections;
mod recent;
mod refusal_log;
pub mod retention;
mod routes;
pub mod seed;
mod settings;
mod state;
pub mod storage;

use std::sync::Arc;

use actix_web::web;
use prometheus_client::registry::Registry;
use wm_domain::Clock;
use wm_eventlog::{EventLog, outbox::Relay, projection::Projection};
use wm_storage::{Db, Migrations};

pub use error::IngestError;
pub use settings::{
    AlarmSettings, AnalyticsSettings, DetectorSettings, MqttSettings, MqttTlsSettings, TelemetrySettings,
};
pub use state::IngestState;

use crate::{detectors::Detectors, identities::Revocations, ingest::metrics::IngestMetrics};

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
    wm_proto::topics::ALARMS,
    wm_proto::topics::DEAD_LETTERS,
    wm_proto::topics::AUDIT,
];

/// The service's tables. It also needs the outbox.
pub const MIGRATIONS: Migrations = wm_storage::migrations!("telemetry-ingest", 1 => "telemetry", 2 => "valve_commands", 3 => "gateway_sessions", 4 => "alarms", 5 => "rollups", 6 => "detectors", 7 => "totals", 8 => "gateway_credentials", 9 => "month_partitions", 10 => "lookups_by_key", 11 => "times_for_retention", 12 => "past_and_future_partitions", 13 => "reading_activity_through_readings", 14 => "claims_by_observation", 15 => "claims_by_time");

/// The relay that publishes the service's events: give it, with one
/// [`Revocations`] for both, to [`build`] and [`projections`], and spawn
/// [`Relay::run`] beside the server.
pub fn relay(db: Db, log: Arc<dyn EventLog>) -> Relay {
    Relay::new(db, log, NAME)
}

/// The service's configuration: the `telemetry`, `alarms` and `analytics`
/// sections.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IngestSettings {
    pub telemetry: TelemetrySettings,
    pub alarms: AlarmSettings,
    pub analytics: AnalyticsSettings,
}

/// The service's state.
pub fn build(
    db: Db,
    (relay, revocations): (Relay, Revocations),
    clock: Arc<dyn Clock>,
    settings: IngestSettings,
    registry: &mut Registry,
) -> web::Data<IngestState> {
    let metrics = IngestMetrics::register(registry);
    let dispatch = Arc::new(tokio::sync::Notify::new());
    let IngestSettings { telemetry, alarms, analytics } = settings;
    let (alarms, analytics) = (Arc::new(alarms), Arc::new(analytics));
    let top_consumers = Arc::new(recent::Recent::new(std::time::Duration::from_secs(60)));
    let rate_limit = Arc::new(ingest::rate_limit::RateLimiter::new(&telemetry));
    web::Data::new(IngestState {
        db,
        relay,
        revocations,
        clock,
        metrics,
        dispatch,
        telemetry,
        alarms,
        analytics,
        rate_limit,
        top_consumers,
    })
}

/// The leak detectors, unless they (or the rollups they read) are off.
pub fn detectors(settings: &IngestSettings) -> Option<Detectors> {
    let analytics = &settings.analytics;
    (analytics.rollups && analytics.detectors.enabled)
        .then(|| Detectors::new(analytics.detectors.clone(), settings.alarms.clone(), analytics.tz()))
}

/// The service's projections, in rebuild order; the rollups unless
/// `analytics.rollups` is off, with the detectors unless they are off and
/// their alarms published by `relay`.
pub fn projections(
    db: &Db,
    settings: &IngestSettings,
    clock: Arc<dyn Clock>,
    (relay, revocations): (&Relay, &Revocations),
) -> Vec<Arc<dyn Projection>> {
    let mut all: Vec<Arc<dyn Projection>> = vec![
        Arc::new(projections::DirectoryProjection { db: db.clone(), revocations: revocations.clone() }),
        Arc::new(projections::TelemetryProjection { db: db.clone() }),
    ];
    if settings.analytics.rollups {
        let detectors = detectors(settings).map(|d| (d, relay.clone()));
        let tz = settings.analytics.tz();
        all.push(Arc::new(projections::RollupProjection::new(db.clone(), tz, clock, detectors)));
    }
    all
}

/// The service's part of the OpenAPI document.
pub fn openapi() -> utoipa::openapi::OpenApi {
    <routes::TelemetryApi as utoipa::OpenApi>::openapi()
}

/// Mounts this service's routes with its state.
pub fn configure(state: web::Data<IngestState>) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(state);
        routes::configure(cfg);
    }
}
