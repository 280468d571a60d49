//! Fixtures for tests that talk to real servers.
//!
//! `make test` starts PostgreSQL and a Kafka-protocol broker on loopback and
//! exports where they listen (see [`servers`]). A test that needs a server it
//! cannot find is skipped with a message when run by hand, and fails when
//! `WM_REQUIRE_SERVERS=1` (as `make test` and CI set it), so a missing server
//! can never turn a red suite green.
//!
//! - [`db`]: a fresh database per test, on either backend;
//! - [`service`]: one service on a port of its own, for its API tests;
//! - [`target`]: a deployment through its HTTP API, with access tokens;
//! - [`devices`] and [`sessions`]: what API tests register and sign in with;
//! - [`sse`]: the notification stream as a client reads it;
//! - [`gateway`]: a field gateway on a deployment's MQTT broker;
//! - [`mqtt`], [`proxy`], [`cluster`]: Mosquitto, a cuttable TCP proxy, and
//!   a whole distributed deployment;
//! - [`kafka`]: the test broker's topics, deleted once a deployment is done;
//! - [`otlp`]: a trace receiver the deployment exports its spans to;
//! - [`ports`]: ports for servers a test starts in another process.

// Test helpers fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used)]

pub mod cluster;
pub mod db;
pub mod devices;
pub mod gateway;
pub mod kafka;
pub mod log;
pub mod mqtt;
pub mod otlp;
pub mod ports;
pub mod proxy;
pub mod servers;
pub mod service;
pub mod sessions;
pub mod sse;
pub mod target;
pub mod tls;

use std::time::Duration;

pub use db::TestDb;

/// Retries `check` until it returns `Some`, failing after 30 s: for what a
/// deployment does in the background (projections, relays).
pub async fn eventually<T, F: Future<Output = Option<T>>>(what: &str, mut check: impl FnMut() -> F) -> T {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(tokio::time::Instant::now() < deadline, "{what}: not within 30 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
