//! Structured logs, and OpenTelemetry traces over OTLP when an endpoint is
//! configured (off by default). JSON lines logged in a traced span carry
//! its `trace_id` and `span_id` ([`trace_ids`]).

mod trace_ids;

use anyhow::Context;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::WithExportConfig;
use opentelemetry_sdk::{Resource, propagation::TraceContextPropagator, trace::SdkTracerProvider};
use serde::{Deserialize, Serialize};
use tracing_subscriber::{EnvFilter, Layer, layer::SubscriberExt, util::SubscriberInitExt};

/// The `log` section of the configuration.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct LogSettings {
    /// `json` (one object per line, for collectors) or `pretty` (terminals).
    pub format: LogFormat,
    /// A tracing filter, such as `info` or `info,wm_eventlog=debug`.
    /// `RUST_LOG` overrides it.
    pub level: String,
    /// OTLP/HTTP endpoint for traces, such as `http://otel-collector:4318`.
    /// Tracing export is off when empty.
    pub otlp_endpoint: Option<String>,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Json,
    Pretty,
}

impl Default for LogSettings {
    fn default() -> Self {
        Self { format: LogFormat::Json, level: "info".to_owned(), otlp_endpoint: None }
    }
}

/// Flushes pending spans when dropped at the end of `main`.
#[derive(Debug)]
pub struct TelemetryGuard {
    provider: Option<SdkTracerProvider>,
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        if let Some(provider) = self.provider.take()
            && let Err(e) = provider.shutdown()
        {
            eprintln!("trace exporter shutdown failed: {e}");
        }
    }
}

/// Installs the global subscriber. Call once, from `main`. Logs go to
/// stderr, so stdout carries only what a command prints for its user.
pub fn init(settings: &LogSettings, service_name: &'static str) -> anyhow::Result<TelemetryGuard> {
    let filter = match std::env::var("RUST_LOG") {
        Ok(from_env) => {
            EnvFilter::try_new(&from_env).with_context(|| format!("RUST_LOG: invalid filter '{from_env}'"))?
        }
        Err(_) => EnvFilter::try_new(&settings.level).with_context(|| {
            format!("log.level: invalid filter '{}'; expected e.g. info or info,wm_http=debug", settings.level)
        })?,
    };
    let fmt = match settings.format {
        LogFormat::Json => tracing_subscriber::fmt::layer()
            .json()
            .event_format(trace_ids::WithTraceIds(
                tracing_subscriber::fmt::format().json().flatten_event(true).with_current_span(false),
            ))
            .with_writer(std::io::stderr)
            .boxed(),
        LogFormat::Pretty => tracing_subscriber::fmt::layer().compact().with_writer(std::io::stderr).boxed(),
    };
    let provider = match settings.otlp_endpoint.as_deref().filter(|e| !e.is_empty()) {
        Some(endpoint) => Some(otlp_provider(endpoint, service_name)?),
        None => None,
    };
    let otel = provider.as_ref().map(|p| tracing_opentelemetry::layer().with_tracer(p.tracer(service_name)));
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    tracing_subscriber::registry()
        .with(filter)
        .with(fmt)
        .with(otel)
        .try_init()
        .context("a tracing subscriber is already installed")?;
    Ok(TelemetryGuard { provider })
}

fn otlp_provider(endpoint: &str, service_name: &'static str) -> anyhow::Result<SdkTracerProvider> {
    crate::client::install_crypto(); // the exporter builds its own reqwest client
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_endpoint(format!("{}/v1/traces", endpoint.trim_end_matches('/')))
        .build()
        .with_context(|| format!("log.otlp_endpoint: cannot export traces to '{endpoint}'"))?;
    Ok(SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_resource(Resource::builder().with_service_name(service_name).build())
        .build())
}
