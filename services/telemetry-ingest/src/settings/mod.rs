//! The service's settings: `mqtt`, `telemetry`, `alarms` and `analytics`.

mod alarms;
mod analytics;

use serde::{Deserialize, Serialize};

pub use self::{
    alarms::AlarmSettings,
    analytics::{AnalyticsSettings, DetectorSettings, millilitres},
};

/// The embedded broker, or an external one by URL.
pub const EMBEDDED: &str = "embedded";

#[derive(Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct MqttSettings {
    /// `embedded` runs a broker in this process, on `listen`; otherwise the
    /// broker to connect to, `mqtt://host:port`.
    pub broker: String,
    /// Where the embedded broker listens.
    pub listen: String,
    /// The shared gateway login, for migrations only (docs/device-plane.md).
    pub gateway_username: String,
    /// Its password: when set, every gateway may sign in with it and act as
    /// any other. Unset (the default), each gateway signs in as itself.
    /// Never printed.
    pub gateway_password: Option<String>,
    /// w-meter's own login to the broker.
    pub username: String,
    /// Its password: required by an external broker that authenticates;
    /// generated for the embedded broker when unset. Never printed.
    pub password: Option<String>,
    /// The MQTT client id of ingest (one persistent session per id).
    pub client_id: String,
    /// With an external broker, replicas share the uplinks through
    /// `$share/{shared_group}/…`; empty subscribes plainly (one replica).
    pub shared_group: String,
    /// Uplinks taken in per transaction, at most.
    pub batch: usize,
    /// MQTT over TLS on the embedded broker.
    pub tls: MqttTlsSettings,
}

/// The embedded broker's TLS listener (docs/device-plane.md).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct MqttTlsSettings {
    /// Where it listens, e.g. `0.0.0.0:8883`; empty: no TLS listener.
    pub listen: String,
    /// The broker's certificate chain (PEM).
    pub cert_file: String,
    /// Its private key (PEM).
    pub key_file: String,
    /// The CA whose client certificates sign gateways in. Empty: the
    /// device CA in the embedded mode (`devices.ca_cert_file`), none (only
    /// password logins over TLS) otherwise.
    pub client_ca_file: String,
}

impl MqttTlsSettings {
    /// The TLS listener's address, when it has one.
    pub fn address(&self) -> Result<Option<std::net::SocketAddr>, (&'static str, String)> {
        if self.listen.is_empty() {
            return Ok(None);
        }
        let addr = self.listen.parse().map_err(|_| {
            ("mqtt.tls.listen", format!("{:?} is not an address; expected host:port, e.g. 0.0.0.0:8883", self.listen))
        })?;
        for (key, value) in [("mqtt.tls.cert_file", &self.cert_file), ("mqtt.tls.key_file", &self.key_file)] {
            if value.is_empty() {
                return Err((key, "required with mqtt.tls.listen".to_owned()));
            }
        }
        Ok(Some(addr))
    }
}

impl Default for MqttSettings {
    fn default() -> Self {
        Self {
            broker: EMBEDDED.to_owned(),
            listen: "127.0.0.1:1883".to_owned(),
            gateway_username: "gateway".to_owned(),
            gateway_password: None,
            username: "wmeter".to_owned(),
            password: None,
            client_id: "wmeter-ingest".to_owned(),
            shared_group: String::new(),
            batch: 500,
            tls: MqttTlsSettings::default(),
        }
    }
}

impl std::fmt::Debug for MqttSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let redacted = |p: &Option<String>| p.as_ref().map(|_| "***");
        f.debug_struct("MqttSettings")
            .field("broker", &self.broker)
            .field("listen", &self.listen)
            .field("gateway_username", &self.gateway_username)
            .field("gateway_password", &redacted(&self.gateway_password))
            .field("username", &self.username)
            .field("password", &redacted(&self.password))
            .field("client_id", &self.client_id)
            .field("shared_group", &self.shared_group)
            .field("batch", &self.batch)
            .field("tls", &self.tls)
            .finish()
    }
}

impl MqttSettings {
    pub fn is_embedded(&self) -> bool {
        self.broker == EMBEDDED
    }

    /// The external broker's host and port.
    pub fn broker_address(&self) -> Result<(String, u16), (&'static str, String)> {
        let invalid = || ("mqtt.broker", format!("{:?} is neither \"embedded\" nor mqtt://host:port", self.broker));
        let rest = self.broker.strip_prefix("mqtt://").ok_or_else(invalid)?;
        let (host, port) = rest.trim_end_matches('/').rsplit_once(':').ok_or_else(invalid)?;
        let port = port.parse::<u16>().ok().filter(|p| *p > 0).ok_or_else(invalid)?;
        if host.is_empty() {
            return Err(invalid());
        }
        Ok((host.to_owned(), port))
    }

    /// The first invalid key and why, if any.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        if self.is_embedded() {
            self.listen.parse::<std::net::SocketAddr>().map_err(|_| {
                ("mqtt.listen", format!("{:?} is not an address; expected host:port, e.g. 127.0.0.1:1883", self.listen))
            })?;
        } else {
            self.broker_address()?;
        }
        self.tls.address()?;
        if self.gateway_password.as_deref().is_some_and(str::is_empty) {
            return Err((
                "mqtt.gateway_password",
                "is empty; unset it to turn the shared gateway login off".to_owned(),
            ));
        }
        if !(1..=10_000).contains(&self.batch) {
            return Err(("mqtt.batch", format!("{} is out of range; expected 1 to 10000", self.batch)));
        }
        let id_ok = !self.client_id.is_empty()
            && self.client_id.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
        if !id_ok {
            return Err(("mqtt.client_id", "must be letters, digits, '-', '_' or '.'".to_owned()));
        }
        Ok(())
    }
}

/// The `telemetry` settings.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct TelemetrySettings {
    /// Days telemetry is kept (activity, BLE activity, readings,
    /// discoveries, accepted message ids, hourly rollups, and the embedded
    /// log's telemetry topics); older rows are deleted hourly.
    pub retention_days: u32,
    /// Minutes instead of days, when set: for soaks and trials that must
    /// see retention apply within the hour. The pruning then runs four
    /// times per retention period.
    pub retention_minutes: Option<u32>,
    /// Uplinks a second one gateway may send, sustained (0: no limit); the
    /// excess is dead-lettered as `rate-limited`, so that one flooding
    /// gateway cannot starve the rest.
    pub gateway_rate_per_sec: u32,
    /// Uplinks a gateway may send at once above that rate (after a silence,
    /// a gateway sends what it kept).
    pub gateway_rate_burst: u32,
}

impl Default for TelemetrySettings {
    fn default() -> Self {
        Self { retention_days: 90, retention_minutes: None, gateway_rate_per_sec: 100, gateway_rate_burst: 2_000 }
    }
}

impl TelemetrySettings {
    /// How long telemetry is kept.
    pub fn retention(&self) -> chrono::TimeDelta {
        match self.retention_minutes {
            Some(minutes) => chrono::TimeDelta::minutes(i64::from(minutes)),
            None => chrono::TimeDelta::days(i64::from(self.retention_days)),
        }
    }

    /// How often the retention is enforced: hourly, or four times per
    /// retention period when that is shorter.
    pub fn prune_every(&self) -> std::time::Duration {
        let quarter = self.retention().to_std().unwrap_or_default() / 4;
        quarter.clamp(std::time::Duration::from_secs(15), std::time::Duration::from_secs(3600))
    }

    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        if !(1..=3650).contains(&self.retention_days) {
            return Err((
                "telemetry.retention_days",
                format!("{} is out of range; expected 1 to 3650", self.retention_days),
            ));
        }
        if let Some(minutes) = self.retention_minutes
            && !(1..=3650 * 24 * 60).contains(&minutes)
        {
            return Err(("telemetry.retention_minutes", format!("{minutes} is out of range; expected 1 to 5256000")));
        }
        if self.gateway_rate_per_sec > 0 && self.gateway_rate_burst == 0 {
            return Err(("telemetry.gateway_rate_burst", "must be at least 1 when the rate is limited".to_owned()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn external_brokers_are_urls() {
        let s = MqttSettings { broker: "mqtt://mosquitto:1883".into(), ..MqttSettings::default() };
        assert_eq!(s.broker_address().unwrap(), ("mosquitto".to_owned(), 1883));
        for bad in ["tcp://x:1", "mqtt://x", "mqtt://:1883", "mqtt://x:0"] {
            let s = MqttSettings { broker: bad.into(), ..MqttSettings::default() };
            assert_eq!(s.validate().unwrap_err().0, "mqtt.broker", "{bad}");
        }
    }

    #[test]
    fn an_empty_shared_password_is_refused_not_taken_for_one() {
        let s = MqttSettings { gateway_password: Some(String::new()), ..MqttSettings::default() };
        assert_eq!(s.validate().unwrap_err().0, "mqtt.gateway_password");
    }

    #[test]
    fn passwords_are_not_printed() {
        let s = MqttSettings { password: Some("hunter22".into()), ..MqttSettings::default() };
        assert!(!format!("{s:?}").contains("hunter22"));
    }

    #[test]
    fn retention_is_days_or_minutes_and_pruned_four_times_per_period_at_most_hourly() {
        let days = TelemetrySettings::default();
        assert_eq!(days.retention(), chrono::TimeDelta::days(90));
        assert_eq!(days.prune_every(), std::time::Duration::from_secs(3600));
        let minutes = TelemetrySettings { retention_minutes: Some(4), ..TelemetrySettings::default() };
        assert_eq!(minutes.retention(), chrono::TimeDelta::minutes(4));
        assert_eq!(minutes.prune_every(), std::time::Duration::from_secs(60));
        let zero = TelemetrySettings { retention_minutes: Some(0), ..TelemetrySettings::default() };
        assert_eq!(zero.validate().unwrap_err().0, "telemetry.retention_minutes");
    }
}
