//! The librdkafka clients' configuration, from the `event_log` settings.

use std::time::Duration;

use rdkafka::ClientConfig;

use super::KafkaSettings;
use crate::StartFrom;

impl KafkaSettings {
    pub(crate) fn request_timeout(&self) -> Duration {
        Duration::from_millis(u64::from(self.request_timeout_ms))
    }

    fn base(&self) -> ClientConfig {
        let mut config = ClientConfig::new();
        config
            .set("bootstrap.servers", &self.brokers)
            .set("client.id", &self.client_id)
            .set("socket.timeout.ms", self.request_timeout_ms.to_string());
        self.security.apply(&mut config);
        for (key, value) in &self.options {
            config.set(key, value);
        }
        config
    }

    /// At-least-once producer: every append is acknowledged by all in-sync
    /// replicas, and keys are placed with Kafka's murmur2 partitioner.
    pub(crate) fn producer(&self) -> ClientConfig {
        let mut config = self.base();
        config
            .set("acks", "all")
            .set("enable.idempotence", self.idempotence.to_string())
            .set("partitioner", "murmur2_random")
            .set("linger.ms", self.linger_ms.to_string())
            .set("message.timeout.ms", self.delivery_timeout_ms.to_string());
        if !self.idempotence {
            config.set("max.in.flight.requests.per.connection", "1");
        }
        config
    }

    /// A group member that commits only what it was told to: offsets are
    /// stored by [`Consumer::commit`](crate::Consumer::commit), and the
    /// auto-commit only flushes stored offsets (on rebalance and close too).
    pub(crate) fn group_member(&self, group: &str, start: StartFrom) -> ClientConfig {
        let mut config = self.base();
        config
            .set("group.id", group)
            .set("enable.auto.commit", "true")
            .set("enable.auto.offset.store", "false")
            .set("auto.offset.reset", reset(start))
            .set("session.timeout.ms", self.session_timeout_ms.to_string())
            .set("heartbeat.interval.ms", self.heartbeat_interval_ms.to_string())
            .set("enable.partition.eof", "false");
        config
    }

    /// A consumer that is assigned partitions by hand and never commits.
    pub(crate) fn replayer(&self, group: &str) -> ClientConfig {
        let mut config = self.base();
        config
            .set("group.id", group)
            .set("enable.auto.commit", "false")
            .set("enable.auto.offset.store", "false")
            .set("auto.offset.reset", "earliest")
            .set("enable.partition.eof", "false");
        config
    }

    pub(crate) fn admin(&self) -> ClientConfig {
        self.base()
    }
}

fn reset(start: StartFrom) -> &'static str {
    match start {
        StartFrom::Earliest => "earliest",
        StartFrom::Latest => "latest",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_stores_offsets_only_on_commit() {
        let config = KafkaSettings::default().group_member("g", StartFrom::Earliest);
        assert_eq!(config.get("enable.auto.offset.store"), Some("false"));
        assert_eq!(config.get("auto.offset.reset"), Some("earliest"));
        assert_eq!(config.get("group.id"), Some("g"));
    }

    #[test]
    fn producer_is_idempotent_with_kafka_partitioner() {
        let config = KafkaSettings::default().producer();
        assert_eq!(config.get("enable.idempotence"), Some("true"));
        assert_eq!(config.get("acks"), Some("all"));
        assert_eq!(config.get("partitioner"), Some("murmur2_random"));
    }
}
