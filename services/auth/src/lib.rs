//! Auth service: sign-in, refresh-token rotation, users and roles.
//!
//! Owns /api/auth/*: sign-in, refresh, logout and users (issue 3).
//! In the embedded mode `wmeter serve` mounts [`configure`] into the one
//! `App`; in the distributed mode `wmeter run auth` serves it alone.
//! Routes are registered as resources, never as scopes, because services
//! share the `/api/proxy` prefix and an actix scope would swallow the
//! other services' paths.

use actix_web::web;

/// The service's name, as given to `wmeter run`.
pub const NAME: &str = "auth";

/// Mounts this service's routes.
pub fn configure(_cfg: &mut web::ServiceConfig) {}
