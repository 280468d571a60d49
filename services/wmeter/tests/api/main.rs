//! The HTTP API of the whole application, through real HTTP on port 0.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

#[path = "../suite/mod.rs"]
mod suite;

mod auth;
mod distributed;
mod forwarding;
mod helpers;
mod notifications;
mod operability;
mod registry;
mod replay;
mod spa;
mod suite_embedded;
mod telemetry;
