//! Telemetry-ingest service: MQTT uplinks to events, telemetry reads, valve commands.
//!
//! Owns MQTT ingest and the telemetry reads under /api/proxy (issue 5).
//! In the embedded mode `wmeter serve` mounts [`configure`] into the one
//! `App`; in the distributed mode `wmeter run telemetry-ingest` serves it alone.
//! Routes are registered as resources, never as scopes, because services
//! share the `/api/proxy` prefix and an actix scope would swallow the
//! other services' paths.

pub mod uplink;

use actix_web::web;

/// The service's name, as given to `wmeter run`.
pub const NAME: &str = "telemetry-ingest";

/// Mounts this service's routes.
pub fn configure(_cfg: &mut web::ServiceConfig) {}
