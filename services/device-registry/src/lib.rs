//! Device-registry service: gateways and water meters.
//!
//! Owns `/api/proxy/gateways*`, `/api/proxy/wmeters*`, counts, search and
//! fieldcheck. Operators' actions ([`actions`]) are decided by the
//! aggregates in [`domain`], saved with their events staged in the outbox in
//! one transaction; the relay publishes them on
//! `wmeter.registry.v1`. Device state (last seen, totals, critical, down)
//! comes from the telemetry and shutdown events ([`projections`]).
//!
//! In the embedded mode `wmeter serve` mounts [`configure`] into the one
//! `App`; in the distributed mode `wmeter run device-registry` serves it
//! alone. Routes are registered as resources, never as scopes, because
//! services share the `/api/proxy` prefix and an actix scope would swallow
//! the other services' paths.

pub mod actions;
pub mod claims;
pub mod credentials;
pub mod device_ca;
pub mod domain;
mod error;
pub mod import;
pub mod json;
pub mod map;
mod messages;
pub mod projections;
mod routes;
pub mod search;
pub mod seed;
mod settings;
mod state;
pub mod storage;

use std::sync::Arc;

use actix_web::web;
use wm_domain::Clock;
use wm_eventlog::{EventLog, outbox::Relay, projection::Projection};
use wm_storage::{Db, Migrations};

pub use error::RegistryError;
pub use settings::DeviceSettings;
pub use state::RegistryState;

/// The service's name, as given to `wmeter run`; also its outbox source.
pub const NAME: &str = "device-registry";

/// The registry's tables. It also needs the outbox and the checkpoints
/// ([`wm_eventlog::outbox::MIGRATIONS`], [`wm_eventlog::checkpoint::MIGRATIONS`]).
pub const MIGRATIONS: Migrations = wm_storage::migrations!(
    "device-registry",
    1 => "devices",
    2 => "valve_commands",
    3 => "search_index",
    4 => "applied_readings",
    5 => "map",
    6 => "gateway_credentials",
    7 => "search_vocab",
    8 => "search_suffixes",
);

/// The service's state and the relay that publishes its events; spawn
/// [`Relay::run`] beside the server.
pub fn build(
    db: Db,
    log: Arc<dyn EventLog>,
    clock: Arc<dyn Clock>,
    (settings, device_ca): (DeviceSettings, Arc<device_ca::DeviceCa>),
) -> (web::Data<RegistryState>, Relay) {
    let relay = Relay::new(db.clone(), log, NAME);
    let actions = actions::Actions { db, relay: relay.clone(), clock };
    (web::Data::new(RegistryState { actions, settings, device_ca }), relay)
}

/// The registry's projections, in rebuild order: its own events first,
/// then the device state that refers to them.
pub fn projections(db: &Db, clock: Arc<dyn Clock>) -> Vec<Arc<dyn Projection>> {
    vec![
        Arc::new(projections::devices::DevicesProjection { db: db.clone() }),
        Arc::new(projections::state::StateProjection { db: db.clone(), clock }),
    ]
}

/// The registry's part of the OpenAPI document.
pub fn openapi() -> utoipa::openapi::OpenApi {
    <routes::RegistryApi as utoipa::OpenApi>::openapi()
}

/// Mounts this service's routes with its state.
pub fn configure(state: web::Data<RegistryState>) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(state);
        routes::configure(cfg);
    }
}
