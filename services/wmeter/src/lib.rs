//! The `wmeter` binary as a library, so tests build the same application
//! the binary runs (on port 0, against their own database).

pub mod app;
pub mod broker_certificate;
pub mod cli;
pub mod config;
mod database_file;
mod demo;
mod files;
mod jwt_key;
pub mod mosquitto;
mod output;
mod readiness;
pub mod role;
mod services;
mod shutdown;
mod simulator;
pub mod subcommands;
mod wiring;

pub use app::Application;
pub use role::{Role, Service};
