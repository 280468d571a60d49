//! Device-registry service: gateways and water meters.
//!
//! Owns /api/proxy/gateways*, /api/proxy/wmeters*, counts, search and fieldcheck (issue 4).
//! In the embedded mode `wmeter serve` mounts [`configure`] into the one
//! `App`; in the distributed mode `wmeter run device-registry` serves it alone.
//! Routes are registered as resources, never as scopes, because services
//! share the `/api/proxy` prefix and an actix scope would swallow the
//! other services' paths.

use actix_web::web;

/// The service's name, as given to `wmeter run`.
pub const NAME: &str = "device-registry";

/// Mounts this service's routes.
pub fn configure(_cfg: &mut web::ServiceConfig) {}
