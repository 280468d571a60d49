//! The notification service's HTTP API, the service alone: alerts and
//! gateway silences become notifications, the stream and the inbox, on
//! SQLite (embedded log) and on PostgreSQL (Kafka log). Users, devices and
//! alerts reach it as the events other services publish.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

mod events;
mod fan_out;
mod helpers;
mod hints;
mod replay;
mod storm;
mod stream;
