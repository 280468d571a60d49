//! Reading and writing a deployment's event log as another service would.

use std::time::Duration;

use wm_eventlog::{
    EventLog, Record,
    checkpoint::CheckpointError,
    kafka::KafkaSettings,
    projection::{Effects, Projection},
};
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
    records(log, topic).await.iter().map(|r| Envelope::from_bytes(&r.payload).expect("an envelope")).collect()
}

/// Every record on `topic` so far, in log order within each partition.
pub async fn records(log: &dyn EventLog, topic: &str) -> Vec<Record> {
    let mut replay = log.replay(&[topic]).await.expect("replay the topic");
    let mut records = Vec::new();
    while !replay.caught_up() {
        records.extend(replay.poll(500, Duration::from_secs(5)).await.expect("read the topic"));
    }
    records
}

/// Applies `records` to `projection` live, between a rebuild's reset and
/// its end, and checks the batch is refused as held for the rebuild.
pub async fn assert_held_for_rebuild(projection: &dyn Projection, records: &[Record]) {
    let refused = projection.apply(records, Effects::Live).await.expect_err("a live batch during a rebuild");
    assert!(matches!(refused.downcast_ref::<CheckpointError>(), Some(CheckpointError::Rebuilding(_))), "{refused:?}");
    let said = format!("{} is being rebuilt", projection.name());
    assert!(refused.to_string().contains(&said), "{refused}");
}
