//! The `event_log` settings of the distributed mode, and the librdkafka
//! configuration of each client built from them.

use std::{collections::BTreeMap, fmt};

use serde::{Deserialize, Serialize};

use super::security::KafkaSecurity;
use crate::{EventLogError, Result};

#[derive(Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct KafkaSettings {
    /// Bootstrap servers, `host:port[,host:port…]`.
    pub brokers: String,
    /// Names this process in broker logs and quotas.
    pub client_id: String,
    /// A prefix on every topic and consumer group (e.g. `staging.`), so
    /// deployments can share a cluster; empty by default.
    pub namespace: String,
    /// Partitions of the topics [`ensure_topics`](crate::EventLog::ensure_topics) creates.
    pub partitions: i32,
    /// Replicas of the topics it creates (3 in production, 1 on a test broker).
    pub replication_factor: i32,
    /// A group member silent for this long is dropped and its partitions move.
    pub session_timeout_ms: u32,
    pub heartbeat_interval_ms: u32,
    /// How long an append may take, retries included (`delivery.timeout.ms`).
    pub delivery_timeout_ms: u32,
    /// Bound of admin, metadata and commit requests.
    pub request_timeout_ms: u32,
    /// How long the producer waits to fill a batch (`linger.ms`).
    pub linger_ms: u32,
    /// Idempotent producer (`enable.idempotence`). Keep it on; turning it off
    /// also limits the producer to one request in flight so order survives
    /// retries.
    pub idempotence: bool,
    /// TLS and SASL (`event_log.security.*`).
    pub security: KafkaSecurity,
    /// Extra librdkafka properties for every client. Values are never
    /// printed.
    pub options: BTreeMap<String, String>,
}

impl Default for KafkaSettings {
    fn default() -> Self {
        Self {
            brokers: String::new(),
            client_id: "wmeter".to_owned(),
            namespace: String::new(),
            partitions: 8,
            replication_factor: 3,
            session_timeout_ms: 10_000,
            heartbeat_interval_ms: 1_000,
            delivery_timeout_ms: 30_000,
            request_timeout_ms: 10_000,
            linger_ms: 5,
            idempotence: true,
            security: KafkaSecurity::default(),
            options: BTreeMap::new(),
        }
    }
}

impl KafkaSettings {
    pub fn with_brokers(brokers: impl Into<String>) -> Self {
        Self { brokers: brokers.into(), ..Self::default() }
    }

    pub fn validate(&self) -> Result<()> {
        let invalid = |key, message: &str| Err(EventLogError::InvalidSettings { key, message: message.to_owned() });
        if self.brokers.trim().is_empty() {
            return invalid("event_log.brokers", "must name at least one host:port");
        }
        if !self.namespace.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-')) {
            return invalid("event_log.namespace", "only ASCII letters, digits, '.', '_' and '-' are allowed");
        }
        if self.partitions < 1 {
            return invalid("event_log.partitions", "must be at least 1");
        }
        if self.replication_factor < 1 {
            return invalid("event_log.replication_factor", "must be at least 1");
        }
        // Bounds librdkafka enforces (or, for 0, reads as "wait forever"):
        // checked here so the error names the key instead of failing later.
        let ranges = [
            ("event_log.session_timeout_ms", self.session_timeout_ms, 1_000, 3_600_000),
            ("event_log.delivery_timeout_ms", self.delivery_timeout_ms, 1_000, i32::MAX as u32),
            ("event_log.request_timeout_ms", self.request_timeout_ms, 10, 900_000),
            ("event_log.linger_ms", self.linger_ms, 0, 900_000),
        ];
        for (key, value, min, max) in ranges {
            if !(min..=max).contains(&value) {
                return Err(EventLogError::InvalidSettings {
                    key,
                    message: format!("{value} is out of range; expected {min} to {max}"),
                });
            }
        }
        if self.heartbeat_interval_ms == 0 || self.heartbeat_interval_ms >= self.session_timeout_ms {
            return invalid("event_log.heartbeat_interval_ms", "must be above 0 and below session_timeout_ms");
        }
        self.security.validate().map_err(|(key, message)| EventLogError::InvalidSettings { key, message })
    }
}

impl fmt::Debug for KafkaSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KafkaSettings")
            .field("brokers", &self.brokers)
            .field("client_id", &self.client_id)
            .field("namespace", &self.namespace)
            .field("partitions", &self.partitions)
            .field("replication_factor", &self.replication_factor)
            .field("session_timeout_ms", &self.session_timeout_ms)
            .field("heartbeat_interval_ms", &self.heartbeat_interval_ms)
            .field("delivery_timeout_ms", &self.delivery_timeout_ms)
            .field("request_timeout_ms", &self.request_timeout_ms)
            .field("linger_ms", &self.linger_ms)
            .field("idempotence", &self.idempotence)
            .field("security", &self.security)
            .field("options", &self.options.keys().collect::<Vec<_>>())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_values_are_not_printed() {
        let mut settings = KafkaSettings::default();
        settings.options.insert("sasl.password".into(), "hunter2".into());
        let printed = format!("{settings:?}");
        assert!(printed.contains("sasl.password") && !printed.contains("hunter2"), "{printed}");
    }

    #[test]
    fn heartbeat_must_be_below_session_timeout() {
        let settings = KafkaSettings { heartbeat_interval_ms: 20_000, ..KafkaSettings::with_brokers("k:9092") };
        let err = settings.validate().unwrap_err().to_string();
        assert!(err.starts_with("event_log.heartbeat_interval_ms: "), "{err}");
        assert!(KafkaSettings::with_brokers("k:9092").validate().is_ok());
    }

    #[test]
    fn timeouts_librdkafka_refuses_name_their_key() {
        let cases = [
            (KafkaSettings { delivery_timeout_ms: 0, ..KafkaSettings::with_brokers("k:9092") }, "delivery_timeout_ms"),
            (KafkaSettings { request_timeout_ms: 5, ..KafkaSettings::with_brokers("k:9092") }, "request_timeout_ms"),
            (KafkaSettings { session_timeout_ms: 10, ..KafkaSettings::with_brokers("k:9092") }, "session_timeout_ms"),
        ];
        for (settings, key) in cases {
            let err = settings.validate().unwrap_err().to_string();
            assert!(err.starts_with(&format!("event_log.{key}: ")) && err.contains("out of range"), "{err}");
        }
    }

    #[test]
    fn brokers_have_no_default() {
        let err = KafkaSettings::default().validate().unwrap_err().to_string();
        assert!(err.starts_with("event_log.brokers: "), "{err}");
    }
}
