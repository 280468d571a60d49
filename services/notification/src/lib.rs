//! Notification service: per-user notifications and the live SSE stream.
//!
//! Owns /api/notifications*: per-user notifications and the SSE stream (issue 6).
//! In the embedded mode `wmeter serve` mounts [`configure`] into the one
//! `App`; in the distributed mode `wmeter run notification` serves it alone.
//! Routes are registered as resources, never as scopes, because services
//! share the `/api/proxy` prefix and an actix scope would swallow the
//! other services' paths.

use actix_web::web;

/// The service's name, as given to `wmeter run`.
pub const NAME: &str = "notification";

/// Mounts this service's routes.
pub fn configure(_cfg: &mut web::ServiceConfig) {}
