//! The `wmeter` binary as a library, so tests build the same application
//! the binary runs (on port 0, against their own database).

pub mod app;
pub mod cli;
pub mod commands;
pub mod config;
mod demo;
mod jwt_key;
mod readiness;
mod services;
mod shutdown;
mod wiring;

pub use app::{Application, Role};
