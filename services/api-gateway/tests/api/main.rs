//! The API gateway's HTTP side, the service alone: the dashboard it serves,
//! and what it answers when the service owning a path is down.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

mod forwarding;
mod helpers;
mod spa;
