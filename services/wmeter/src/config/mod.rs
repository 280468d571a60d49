//! The effective configuration: built-in defaults, then an optional TOML
//! file, then `WMETER_*` environment variables (`__` separates sections:
//! `WMETER_DATABASE__URL`, `WMETER_HTTP__PORT`).

mod auth;
mod error;
mod load;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use wm_api_gateway::forward::GatewaySettings;
use wm_device_registry::DeviceSettings;
use wm_eventlog::{EventLogError, EventLogSettings, kafka::KafkaSettings};
use wm_http::{HttpSettings, telemetry::LogSettings};
use wm_notification::NotificationSettings;
use wm_storage::{Backend, DatabaseSettings};
use wm_telemetry_ingest::{AlarmSettings, AnalyticsSettings, MqttSettings, TelemetrySettings};

pub use auth::AuthSettings;
pub use error::ConfigError;
pub use load::{ENV_PREFIX, SECTIONS, load};

/// Everything `wmeter` can be configured with. Print the effective values
/// with `wmeter config print`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    pub http: HttpSettings,
    pub database: DatabaseSettings,
    pub event_log: EventLogSettings,
    pub log: LogSettings,
    pub web: WebSettings,
    pub auth: AuthSettings,
    pub devices: DeviceSettings,
    pub mqtt: MqttSettings,
    pub telemetry: TelemetrySettings,
    pub alarms: AlarmSettings,
    pub analytics: AnalyticsSettings,
    pub notifications: NotificationSettings,
    pub gateway: GatewaySettings,
}

/// The `web` section.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct WebSettings {
    /// The built dashboard (`npm run build` writes `web/dist`). Served at `/`
    /// with a fallback to `index.html` for client-side routes.
    pub static_dir: PathBuf,
    /// The map's tiles: an http(s) URL template with `{z}`, `{x}` and `{y}`
    /// (and optionally `{s}`); empty draws the map on a plain background.
    pub map_tiles_url: String,
    /// How the tiles' source asks to be credited, shown on the map.
    pub map_attribution: String,
}

impl Default for WebSettings {
    fn default() -> Self {
        Self {
            static_dir: PathBuf::from("web/dist"),
            map_tiles_url: "https://tile.openstreetmap.org/{z}/{x}/{y}.png".to_owned(),
            map_attribution: "© OpenStreetMap contributors".to_owned(),
        }
    }
}

impl WebSettings {
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        let url = &self.map_tiles_url;
        let template = (url.starts_with("https://") || url.starts_with("http://"))
            && ["{z}", "{x}", "{y}"].iter().all(|part| url.contains(part));
        if !url.is_empty() && !template {
            let message =
                format!("{url:?} is not a tile URL template; expected http(s)://…/{{z}}/{{x}}/{{y}}…, or empty");
            return Err(("web.map_tiles_url", message));
        }
        Ok(())
    }

    /// The security headers of every response; the policy lets the map's
    /// tiles in.
    /// With `hsts` when the server itself speaks HTTPS.
    pub fn security_headers(&self, hsts: bool) -> wm_http::security::SecurityHeaders {
        let tiles: Vec<String> = wm_http::security::origin_of(&self.map_tiles_url).into_iter().collect();
        wm_http::security::SecurityHeaders::new(&tiles, hsts)
    }

    /// What the dashboard is told at run time.
    pub fn dashboard(&self) -> wm_api_gateway::DashboardSettings {
        wm_api_gateway::DashboardSettings {
            map_tiles_url: self.map_tiles_url.clone(),
            map_attribution: self.map_attribution.clone(),
        }
    }
}

/// How the process runs, which decides what the configuration must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `wmeter serve`, `migrate`, `replay`: one process, with either event
    /// log (the embedded one needs SQLite).
    Embedded,
    /// `wmeter run <service>`: one service, Kafka, an external broker.
    Distributed,
}

impl Settings {
    /// Checks what the types alone cannot, naming the key and the expected
    /// form in every error.
    pub fn validate(&self, mode: Mode) -> Result<(), ConfigError> {
        let backend = self.database.backend().map_err(ConfigError::from_storage)?;
        self.database.validate().map_err(ConfigError::from_storage)?;
        self.validate_event_log(mode, backend)?;
        self.devices.validate().map_err(|(key, message)| ConfigError::invalid(key, message))?;
        self.mqtt.validate().map_err(|(key, message)| ConfigError::invalid(key, message))?;
        self.telemetry.validate().map_err(|(key, message)| ConfigError::invalid(key, message))?;
        self.alarms.validate().map_err(|(key, message)| ConfigError::invalid(key, message))?;
        self.analytics.validate().map_err(|(key, message)| ConfigError::invalid(key, message))?;
        self.web.validate().map_err(|(key, message)| ConfigError::invalid(key, message))?;
        self.http.tls.enabled().map_err(|(key, message)| ConfigError::invalid(key, message))?;
        self.notifications.validate().map_err(|(key, message)| ConfigError::invalid(key, message))?;
        self.gateway.validate(false).map_err(|(key, message)| ConfigError::invalid(key, message))?;

        self.auth.validate(mode)
    }

    fn validate_event_log(&self, mode: Mode, backend: Backend) -> Result<(), ConfigError> {
        match &self.event_log {
            EventLogSettings::Embedded(_) if mode == Mode::Distributed => Err(ConfigError::invalid(
                "event_log.brokers",
                "required in distributed mode (wmeter run); set event_log.kind = \"kafka\" and \
                 event_log.brokers = host:port[,host:port...], \
                 e.g. WMETER_EVENT_LOG__KIND=kafka WMETER_EVENT_LOG__BROKERS=kafka:9092",
            )),
            EventLogSettings::Embedded(_) if backend == Backend::Postgres => Err(ConfigError::invalid(
                "event_log.kind",
                "the embedded event log lives in the SQLite database; with a postgres:// database.url \
                 set event_log.kind = \"kafka\" and event_log.brokers = host:port[,host:port...]",
            )),
            EventLogSettings::Embedded(embedded) => embedded.validate().map_err(from_event_log),
            EventLogSettings::Kafka(kafka) => validate_kafka(kafka),
        }
    }

    /// Telemetry ingest's sections.
    pub fn ingest(&self) -> wm_telemetry_ingest::IngestSettings {
        wm_telemetry_ingest::IngestSettings {
            telemetry: self.telemetry.clone(),
            alarms: self.alarms.clone(),
            analytics: self.analytics.clone(),
        }
    }

    /// The Kafka settings, when the Kafka event log is configured.
    pub fn kafka(&self) -> Option<&KafkaSettings> {
        match &self.event_log {
            EventLogSettings::Kafka(kafka) => Some(kafka),
            EventLogSettings::Embedded(_) => None,
        }
    }
}

fn validate_kafka(kafka: &KafkaSettings) -> Result<(), ConfigError> {
    let brokers = kafka.brokers.trim();
    if brokers.is_empty() {
        return Err(ConfigError::invalid(
            "event_log.brokers",
            "required with event_log.kind = \"kafka\"; expected host:port[,host:port...], \
             e.g. WMETER_EVENT_LOG__BROKERS=kafka:9092",
        ));
    }
    if !brokers.split(',').all(is_host_port) {
        return Err(ConfigError::invalid(
            "event_log.brokers",
            format!("'{brokers}' is not a broker list; expected host:port[,host:port...]"),
        ));
    }
    kafka.validate().map_err(from_event_log)
}

fn from_event_log(e: EventLogError) -> ConfigError {
    match e {
        EventLogError::InvalidSettings { key, message } => ConfigError::invalid(key, message),
        other => ConfigError::invalid("event_log", other.to_string()),
    }
}

fn is_host_port(entry: &str) -> bool {
    match entry.trim().rsplit_once(':') {
        Some((host, port)) => !host.is_empty() && port.parse::<u16>().is_ok_and(|p| p > 0),
        None => false,
    }
}

#[cfg(test)]
mod tests;
