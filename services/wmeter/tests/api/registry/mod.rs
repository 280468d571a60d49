//! The device registry beyond the HTTP suite: deletion of a device seen by
//! telemetry, paging, rebuilds, device states and the events it relays,
//! on SQLite (embedded log) and on PostgreSQL (Kafka log).

mod deletion;
mod events;
mod paging;
mod replay;
mod states;

pub use crate::suite::{address, count_becomes, gateway_body, ids, meter_body, register};
