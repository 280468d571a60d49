//! The `gateway` section: where the other services listen.

use serde::{Deserialize, Serialize};

/// The `gateway` section. Only `wmeter run gateway` reads it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct GatewaySettings {
    pub upstreams: UpstreamSettings,
    /// How long a connection to a service may take before it counts as down.
    pub connect_timeout_ms: u64,
}

impl Default for GatewaySettings {
    fn default() -> Self {
        Self { upstreams: UpstreamSettings::default(), connect_timeout_ms: 2_000 }
    }
}

/// Base URLs (`http://auth:8080`) of the services the gateway forwards to.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct UpstreamSettings {
    pub auth: Option<String>,
    pub device_registry: Option<String>,
    pub telemetry_ingest: Option<String>,
    pub notification: Option<String>,
}

impl GatewaySettings {
    /// Each upstream must be an `http://` or `https://` base URL; with
    /// `required`, every one must be set.
    pub fn validate(&self, required: bool) -> Result<(), (&'static str, String)> {
        let u = &self.upstreams;
        for (key, value) in [
            ("gateway.upstreams.auth", &u.auth),
            ("gateway.upstreams.device_registry", &u.device_registry),
            ("gateway.upstreams.telemetry_ingest", &u.telemetry_ingest),
            ("gateway.upstreams.notification", &u.notification),
        ] {
            match value {
                None if required => {
                    return Err((key, "must be set to the service's base URL, e.g. http://auth:8080".into()));
                }
                None => {}
                Some(url) if !(url.starts_with("http://") || url.starts_with("https://")) || url.len() < 10 => {
                    return Err((key, format!("'{url}' is not an http:// or https:// base URL")));
                }
                Some(_) => {}
            }
        }
        if self.connect_timeout_ms == 0 {
            return Err(("gateway.connect_timeout_ms", "must be above 0".into()));
        }
        Ok(())
    }
}
