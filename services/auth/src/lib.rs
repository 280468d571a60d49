//! Auth service: sign-in, refresh-token rotation, users and roles.
//!
//! Owns /api/auth/*: sign-in, refresh, logout and users: the
//! users table and `wmeter user` commands, argon2id passwords, login with
//! throttling, refresh-token families with rotation and reuse detection,
//! and logout. It also keeps the audit trail of every service
//! ([`projection`]) and serves it at `GET /api/audit` to admins.
//! In the embedded mode `wmeter serve` mounts [`configure`] into the one
//! `App`; in the distributed mode `wmeter run auth` serves it alone.
//! Routes are registered as resources, never as scopes, because services
//! share the `/api/proxy` prefix and an actix scope would swallow the
//! other services' paths.

pub mod actions;
pub mod api_keys;
pub mod audit;
mod cookie;
pub mod domain;
mod error;
mod hashers;
mod limiter;
pub mod metrics;
pub mod password;
pub mod principals;
pub mod projection;
mod routes;
mod settings;
mod state;
pub mod storage;
pub mod users;

use std::sync::Arc;

use actix_web::web;
use wm_eventlog::projection::Projection;
use wm_storage::Db;

pub use error::AuthError;
pub use routes::refresh::CSRF_HEADER;
pub use settings::SessionSettings;
pub use state::AuthState;
use wm_storage::Migrations;

/// The service's name, as given to `wmeter run`.
pub const NAME: &str = "auth";

/// The auth service's tables.
pub const MIGRATIONS: Migrations = wm_storage::migrations!("auth", 1 => "users", 2 => "refresh_tokens", 3 => "audit_log", 4 => "accounts",
        5 => "api_keys_and_preferences", 6 => "login_failures");

/// The service's projections: the audit trail.
pub fn projections(db: &Db) -> Vec<Arc<dyn Projection>> {
    vec![
        Arc::new(projection::AuditProjection { db: db.clone() }),
        Arc::new(projection::KeyUsesProjection { db: db.clone() }),
    ]
}

/// The auth service's part of the OpenAPI document.
pub fn openapi() -> utoipa::openapi::OpenApi {
    <routes::AuthApi as utoipa::OpenApi>::openapi()
}

/// Mounts this service's routes. The app data must also hold the
/// `wm_http::auth::AccessTokens`.
pub fn configure(state: web::Data<AuthState>) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(state)
            .route("/api/auth/login", web::post().to(routes::login::post))
            .route("/api/auth/refresh", web::post().to(routes::refresh::post))
            .route("/api/auth/logout", web::post().to(routes::logout::post))
            .route("/api/auth/me", web::get().to(routes::account::me))
            .route("/api/auth/password", web::post().to(routes::account::change_password))
            .route("/api/auth/preferences", web::put().to(routes::account::preferences))
            .route("/api/audit", web::get().to(routes::audit::get))
            .route("/api/audit/export", web::get().to(routes::audit::export))
            .route("/api/admin/users", web::get().to(routes::users::list))
            .route("/api/admin/users", web::post().to(routes::users::create))
            .route("/api/admin/users/{id}", web::patch().to(routes::users::patch))
            .route("/api/admin/users/{id}/password-reset", web::post().to(routes::users::reset_password))
            .route("/api/admin/users/{id}/revoke-sessions", web::post().to(routes::users::revoke_sessions))
            .route("/api/admin/api-keys", web::get().to(routes::api_keys::list))
            .route("/api/admin/api-keys", web::post().to(routes::api_keys::create))
            .route("/api/admin/api-keys/{id}/revoke", web::post().to(routes::api_keys::revoke));
    }
}
