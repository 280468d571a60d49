//! Telemetry ingest's HTTP API, the service alone: gateways publish over
//! MQTT (the embedded broker on SQLite, a Mosquitto of the test's own on
//! PostgreSQL with Kafka), the registered devices arrive as the registry's
//! events, and the lists and shutdown answers are read and given over HTTP.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

mod alarms;
mod detectors;
mod exports;
mod helpers;
mod lists;
mod rollups;
mod shutdown;
mod valve;
