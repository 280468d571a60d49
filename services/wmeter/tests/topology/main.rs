//! The distributed mode as it runs in production: every service its own
//! `wmeter run` process over PostgreSQL, the Kafka-protocol broker and
//! Mosquitto, with two telemetry-ingest and two notification replicas, all
//! reached through the gateway. `faults` cuts its database or its broker
//! for 30 s.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

#[path = "../suite/mod.rs"]
mod suite;

mod api_suite;
mod client;
mod cluster;
mod faults;
mod ingest;
mod outage;
mod sse;
mod trace;
