use serde::{Deserialize, Serialize};

/// The `http` section of the configuration.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct HttpSettings {
    /// Interface to bind. Loopback by default: exposing the service is a
    /// deliberate choice (`0.0.0.0` in a container).
    pub host: String,
    /// TCP port; 0 picks a free one (tests).
    pub port: u16,
    /// Largest accepted JSON body, in bytes (413 above it).
    pub max_body_bytes: usize,
    /// Seconds a graceful shutdown waits for in-flight requests.
    pub shutdown_timeout_secs: u64,
}

impl Default for HttpSettings {
    fn default() -> Self {
        Self { host: "127.0.0.1".to_owned(), port: 8080, max_body_bytes: 64 * 1024, shutdown_timeout_secs: 20 }
    }
}

impl HttpSettings {
    pub fn address(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }
}
