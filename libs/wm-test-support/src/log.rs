//! Reading and writing a deployment's event log as another service would.

use std::time::Duration;

use wm_eventlog::{EventLog, kafka::KafkaSettings};
use wm_proto::Envelope;

use crate::servers;

/// The test broker's settings for a log of a test's own: one replica, two
/// partitions, and a namespace of its own, since tests share the broker
/// and each must see only its own topics and groups. `None` (skip) when the
/// broker is not configured.
pub fn kafka() -> Option<KafkaSettings> {
    Some(KafkaSettings {
        replication_factor: 1,
        partitions: 2,
        namespace: format!("t{}.", uuid::Uuid::now_v7().simple()),
        ..KafkaSettings::with_brokers(servers::kafka_brokers()?)
    })
}

/// Appends `envelopes`, each on its payload's topic (created first).
pub async fn publish(log: &dyn EventLog, envelopes: &[Envelope]) {
    for topic in envelopes.iter().filter_map(Envelope::topic) {
        log.ensure_topics(&[topic]).await.expect("create the topic");
    }
    wm_eventlog::envelopes::publish(log, envelopes).await.expect("publish the events");
}

/// Every event on `topic` so far, in log order within each partition.
pub async fn events(log: &dyn EventLog, topic: &str) -> Vec<Envelope> {
    let mut replay = log.replay(&[topic]).await.expect("replay the topic");
    let mut events = Vec::new();
    while !replay.caught_up() {
        for record in replay.poll(500, Duration::from_secs(5)).await.expect("read the topic") {
            events.push(Envelope::from_bytes(&record.payload).expect("an envelope"));
        }
    }
    events
}
