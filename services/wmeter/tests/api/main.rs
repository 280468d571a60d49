//! The HTTP API of the whole application, through real HTTP on port 0.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

#[path = "../suite/mod.rs"]
mod suite;

mod device_plane;
mod distributed;
mod forwarding;
mod headers;
mod helpers;
mod http2;
mod integrations;
mod monitoring;
mod operability;
mod replay;
mod suite_embedded;
mod telemetry;
