use std::sync::Arc;

use serde::{Deserialize, Serialize};
use wm_storage::Db;

use crate::{
    EventLog, Result,
    embedded::{EmbeddedLog, EmbeddedSettings},
    kafka::KafkaSettings,
};

/// Which event log to run, chosen by configuration: `kind = "embedded"`
/// (the default) or `kind = "kafka"` with the broker settings.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[expect(clippy::large_enum_variant, reason = "settings are made once per process; boxing buys nothing")]
pub enum EventLogSettings {
    Embedded(EmbeddedSettings),
    Kafka(KafkaSettings),
}

impl Default for EventLogSettings {
    fn default() -> Self {
        EventLogSettings::Embedded(EmbeddedSettings::default())
    }
}

/// Opens the configured log. The embedded log lives in `db`, which must then
/// be SQLite, and is migrated here; the Kafka log does not use `db`, and
/// works in its `namespace`.
pub async fn open(settings: &EventLogSettings, db: &Db) -> Result<Arc<dyn EventLog>> {
    match settings {
        EventLogSettings::Embedded(embedded) => Ok(Arc::new(EmbeddedLog::open(db, embedded.clone()).await?)),
        EventLogSettings::Kafka(kafka) => open_kafka(kafka),
    }
}

/// The Kafka log, for a process that owns no database (the API gateway,
/// which follows the auth topic); `None` for the embedded log, which lives
/// in a database that only the one embedded process opens.
pub fn open_without_db(settings: &EventLogSettings) -> Result<Option<Arc<dyn EventLog>>> {
    match settings {
        EventLogSettings::Embedded(_) => Ok(None),
        EventLogSettings::Kafka(kafka) => open_kafka(kafka).map(Some),
    }
}

#[cfg(feature = "kafka")]
fn open_kafka(kafka: &KafkaSettings) -> Result<Arc<dyn EventLog>> {
    Ok(crate::namespace::Namespaced::wrap(Arc::new(crate::kafka::KafkaLog::connect(kafka.clone())?), &kafka.namespace))
}

/// A build without the `kafka` feature (`make run`'s) says so.
#[cfg(not(feature = "kafka"))]
fn open_kafka(_: &KafkaSettings) -> Result<Arc<dyn EventLog>> {
    Err(no_kafka_adapter())
}

/// What a build without the `kafka` feature answers when asked for Kafka.
#[cfg(not(feature = "kafka"))]
pub(crate) fn no_kafka_adapter() -> crate::EventLogError {
    crate::EventLogError::InvalidSettings {
        key: "event_log.kind",
        message: "this wmeter was built without the Kafka adapter; build it with the `kafka` feature \
                  (the default: `cargo build --bin wmeter`)"
            .to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_is_the_default() {
        let parsed: EventLogSettings = toml::from_str(r#"kind = "embedded""#).expect("parse");
        assert_eq!(parsed, EventLogSettings::default());
    }

    #[test]
    fn kafka_settings_parse_with_defaults() {
        let parsed: EventLogSettings = toml::from_str(
            r#"
            kind = "kafka"
            brokers = "kafka-0:9092,kafka-1:9092"
            partitions = 12
            [options]
            "security.protocol" = "sasl_ssl"
            "#,
        )
        .expect("parse");
        let EventLogSettings::Kafka(kafka) = parsed else { panic!("not kafka: {parsed:?}") };
        assert_eq!(kafka.brokers, "kafka-0:9092,kafka-1:9092");
        assert_eq!(kafka.partitions, 12);
        assert_eq!(kafka.replication_factor, KafkaSettings::default().replication_factor);
        assert_eq!(kafka.options.get("security.protocol").map(String::as_str), Some("sasl_ssl"));
    }

    #[test]
    fn unknown_keys_are_refused() {
        let err = toml::from_str::<EventLogSettings>("kind = \"kafka\"\nbrokerz = \"x\"").expect_err("typo accepted");
        assert!(err.to_string().contains("brokerz"), "{err}");
    }
}
