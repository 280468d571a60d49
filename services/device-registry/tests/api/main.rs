//! The device registry's HTTP API, the service alone: deletion of a device
//! seen by telemetry, paging, rebuilds, device states and the events it
//! relays, on SQLite (embedded log) and on PostgreSQL (Kafka log). What
//! other services report reaches it as events on its log.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

mod claims;
mod deletion;
mod events;
mod helpers;
mod import;
mod map;
mod paging;
mod replay;
mod search;
mod states;

pub use wm_test_support::devices::{address, count_becomes, gateway_body, ids, meter_body, register};
