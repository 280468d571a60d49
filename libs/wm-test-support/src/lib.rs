//! Fixtures for tests that talk to real servers.
//!
//! `make test` starts PostgreSQL and a Kafka-protocol broker on loopback and
//! exports where they listen (see [`servers`]). A test that needs a server it
//! cannot find is skipped with a message when run by hand, and fails when
//! `WM_REQUIRE_SERVERS=1` (as `make test` and CI set it), so a missing server
//! can never turn a red suite green.

pub mod cluster;
pub mod db;
pub mod mqtt;
pub mod proxy;
pub mod servers;

pub use db::TestDb;
