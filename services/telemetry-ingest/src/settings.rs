//! The service's settings: `mqtt`, `telemetry`, `alarms` and `analytics`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::domain::alarm::{Severity, VALVE_TIMEOUT};

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
    /// The login gateways use on the embedded broker.
    pub gateway_username: String,
    /// Its password; the embedded mode generates one for the process when
    /// unset (only the built-in simulator can then connect). Never printed.
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
    /// discoveries, accepted message ids, hourly rollups); older rows are
    /// deleted hourly.
    /// The event log keeps its own retention.
    pub retention_days: u32,
}

impl Default for TelemetrySettings {
    fn default() -> Self {
        Self { retention_days: 90 }
    }
}

impl TelemetrySettings {
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        if !(1..=3650).contains(&self.retention_days) {
            return Err((
                "telemetry.retention_days",
                format!("{} is out of range; expected 1 to 3650", self.retention_days),
            ));
        }
        Ok(())
    }
}

/// The `alarms` settings.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct AlarmSettings {
    /// The severity of each alarm type: `critical`, `major`, `minor` or
    /// `warning`. Set a type to add or change it; the defaults stay.
    pub severities: BTreeMap<String, String>,
    /// The severity of a type not in `severities`.
    pub other_severity: String,
    /// Seconds a valve command may go without the gateway's ack; then it
    /// is timed out and a `valve-timeout` alarm is raised.
    pub valve_timeout_secs: u64,
}

impl Default for AlarmSettings {
    fn default() -> Self {
        let severities = [("leak", "critical"), ("burst", "critical"), ("tamper", "major"), ("low-battery", "minor")]
            .into_iter()
            .chain([(VALVE_TIMEOUT, "major")])
            .map(|(kind, severity)| (kind.to_owned(), severity.to_owned()))
            .collect();
        Self { severities, other_severity: Severity::Warning.as_str().to_owned(), valve_timeout_secs: 600 }
    }
}

impl AlarmSettings {
    /// The severity of an alarm of `alarm_type`.
    pub fn severity(&self, alarm_type: &str) -> Severity {
        let word = self.severities.get(alarm_type).unwrap_or(&self.other_severity);
        word.parse().unwrap_or(Severity::Warning)
    }

    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        let words = || Severity::ALL.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
        for (kind, word) in self.severities.iter().chain([(&"*".to_owned(), &self.other_severity)]) {
            if word.parse::<Severity>().is_err() {
                let key = if kind == "*" { "alarms.other_severity" } else { "alarms.severities" };
                return Err((key, format!("{word:?} for {kind:?} is not a severity; expected one of {}", words())));
            }
        }
        if !(10..=86_400).contains(&self.valve_timeout_secs) {
            return Err((
                "alarms.valve_timeout_secs",
                format!("{} is out of range; expected 10 to 86400", self.valve_timeout_secs),
            ));
        }
        Ok(())
    }
}

/// The `analytics` settings: consumption rollups.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct AnalyticsSettings {
    /// The network's time zone (an IANA name, e.g. `Europe/Paris`): the
    /// rollups' days and months are its local ones. Changing it applies to
    /// new readings; `wmeter replay` re-buckets the old ones.
    pub time_zone: String,
    /// Whether the rollups are kept (on by default; off only to measure
    /// what they cost, `make bench`).
    pub rollups: bool,
}

impl Default for AnalyticsSettings {
    fn default() -> Self {
        Self { time_zone: "UTC".to_owned(), rollups: true }
    }
}

impl AnalyticsSettings {
    /// The network's time zone; UTC until validated.
    pub fn tz(&self) -> chrono_tz::Tz {
        self.time_zone.parse().unwrap_or(chrono_tz::UTC)
    }

    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        self.time_zone.parse::<chrono_tz::Tz>().map(|_| ()).map_err(|_| {
            (
                "analytics.time_zone",
                format!("{:?} is not an IANA time zone; expected e.g. Europe/Paris or UTC", self.time_zone),
            )
        })
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
    fn passwords_are_not_printed() {
        let s = MqttSettings { password: Some("hunter22".into()), ..MqttSettings::default() };
        assert!(!format!("{s:?}").contains("hunter22"));
    }

    #[test]
    fn alarm_severities_default_by_type_and_can_be_changed() {
        let defaults = AlarmSettings::default();
        assert_eq!(defaults.severity("leak"), Severity::Critical);
        assert_eq!(defaults.severity("burst"), Severity::Critical);
        assert_eq!(defaults.severity("tamper"), Severity::Major);
        assert_eq!(defaults.severity("low-battery"), Severity::Minor);
        assert_eq!(defaults.severity("door-open"), Severity::Warning);
        assert_eq!(defaults.valve_timeout_secs, 600);
        let mut changed = AlarmSettings::default();
        changed.severities.insert("tamper".into(), "critical".into());
        changed.other_severity = "minor".into();
        assert_eq!((changed.severity("tamper"), changed.severity("door-open")), (Severity::Critical, Severity::Minor));
        assert_eq!(changed.validate(), Ok(()));
    }

    #[test]
    fn alarm_settings_name_the_bad_key() {
        let mut bad = AlarmSettings::default();
        bad.severities.insert("leak".into(), "huge".into());
        assert_eq!(bad.validate().unwrap_err().0, "alarms.severities");
        let bad = AlarmSettings { other_severity: "meh".into(), ..AlarmSettings::default() };
        assert_eq!(bad.validate().unwrap_err().0, "alarms.other_severity");
        let bad = AlarmSettings { valve_timeout_secs: 1, ..AlarmSettings::default() };
        assert_eq!(bad.validate().unwrap_err().0, "alarms.valve_timeout_secs");
    }

    #[test]
    fn the_network_time_zone_is_an_iana_name() {
        let paris = AnalyticsSettings { time_zone: "Europe/Paris".into(), ..AnalyticsSettings::default() };
        assert_eq!((paris.validate(), paris.tz()), (Ok(()), chrono_tz::Europe::Paris));
        let bad = AnalyticsSettings { time_zone: "Mars/Olympus".into(), ..AnalyticsSettings::default() };
        let (key, message) = bad.validate().unwrap_err();
        assert_eq!(key, "analytics.time_zone");
        assert!(message.contains("\"Mars/Olympus\" is not an IANA time zone"), "{message}");
    }
}
