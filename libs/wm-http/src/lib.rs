//! HTTP plumbing every service shares.
//!
//! - [`ApiError`]: the one JSON error body `{code, message, fields}`, and
//!   [`json_errors`] so actix's own extractor failures use it too;
//!   [`JsonObject`], a body that must be a JSON object.
//! - [`auth`]: the access-token check and the [`auth::Caller`] extractor.
//! - [`health`]: `/healthz`, `/readyz` and `/metrics`.
//! - [`telemetry`]: structured logs and the optional OTLP trace exporter.
//! - [`trace`]: each request joins the caller's trace (`traceparent`).
//! - [`cache`]: `Cache-Control` for the dashboard's assets and HTML.
//! - [`csv`]: the CSV every export writes, safe from formula injection.
//! - [`params`]: the `max` and `start` query parameters of every list.
//! - [`HttpSettings`]: where a service listens.
//! - [`client_ip`]: the client's address, also behind the gateway.
//! - [`methods`]: 404 or 405 (with `Allow`) for what no route takes, from
//!   the OpenAPI document.

pub mod auth;
pub mod cache;
pub mod client;
mod client_ip;
pub mod csv;
mod error;
pub mod health;
mod json_object;
pub mod methods;
pub mod metrics;
pub mod params;
pub mod security;
mod settings;
pub mod telemetry;
pub mod trace;
pub mod upload;

pub use client_ip::{ForwardedFor, client_ip};
pub use error::{ApiError, chain, json_errors, not_found};
pub use json_object::JsonObject;
pub use settings::HttpSettings;
