//! The auth service's HTTP API, the service alone: the events a session
//! leaves in the log, the login throttle, and the demo's cookie, on SQLite
//! (embedded log) and on PostgreSQL (Kafka log).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

mod helpers;
mod sign_in;
