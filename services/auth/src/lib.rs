//! Auth service: sign-in, refresh-token rotation, users and roles.
//!
//! Owns /api/auth/*: sign-in, refresh, logout and users (issue 3). So far:
//! the users table, password hashing, the `wmeter user` commands, and the
//! refresh-token families with rotation and reuse detection.
//! In the embedded mode `wmeter serve` mounts [`configure`] into the one
//! `App`; in the distributed mode `wmeter run auth` serves it alone.
//! Routes are registered as resources, never as scopes, because services
//! share the `/api/proxy` prefix and an actix scope would swallow the
//! other services' paths.

pub mod accounts;
pub mod password;
pub mod storage;

use actix_web::web;
use wm_storage::{Migration, Migrations};

/// The service's name, as given to `wmeter run`.
pub const NAME: &str = "auth";

/// The auth service's tables.
pub const MIGRATIONS: Migrations = Migrations {
    component: "auth",
    sqlite: &[
        Migration { version: 1, name: "users", sql: include_str!("../migrations/sqlite/0001_users.sql") },
        Migration {
            version: 2,
            name: "refresh_tokens",
            sql: include_str!("../migrations/sqlite/0002_refresh_tokens.sql"),
        },
    ],
    postgres: &[
        Migration { version: 1, name: "users", sql: include_str!("../migrations/postgres/0001_users.sql") },
        Migration {
            version: 2,
            name: "refresh_tokens",
            sql: include_str!("../migrations/postgres/0002_refresh_tokens.sql"),
        },
    ],
};

/// Mounts this service's routes.
pub fn configure(_cfg: &mut web::ServiceConfig) {}
