//! Contract tests for the wmeter.v1 event schemas: one binary.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

mod coverage;
mod garbage;
mod generated;
mod round_trip;
mod samples;
