//! The topic plan applied to a real Kafka-protocol broker: every topic is
//! created with the plan's partitions and configuration, a second apply
//! finds nothing to change, and a topic a service created on its own
//! already matches the plan. (Kafka only: the embedded log has no topic
//! configuration.)

use wm_eventlog::{
    kafka::{
        KafkaLog, KafkaSettings,
        plan::{self, TopicChange},
    },
    namespace::Namespaced,
};
use wm_proto::topics;
use wm_test_support::servers;

use crate::harness::bounded;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_creates_every_topic_as_planned_and_then_finds_nothing_to_change() {
    let Some(brokers) = servers::kafka_brokers() else { return };
    let settings = KafkaSettings {
        namespace: format!("wm-test.plan.{}.", uuid::Uuid::now_v7().simple()),
        partitions: 3,
        replication_factor: 1,
        request_timeout_ms: 10_000,
        ..KafkaSettings::with_brokers(brokers)
    };
    // A service that starts first creates the topics it reads.
    let log = KafkaLog::connect(settings.clone()).unwrap();
    let service = Namespaced::wrap(std::sync::Arc::new(log), &settings.namespace);
    bounded("ensure topics", service.ensure_topics(&[topics::READINGS])).await.unwrap();

    let first = bounded("apply", plan::apply(&settings)).await.unwrap();
    let readings = format!("{}{}", settings.namespace, topics::READINGS);
    assert_eq!(first.len(), topics::ALL.len());
    for (topic, changes) in &first {
        let expected: &[TopicChange] = if *topic == readings { &[] } else { &[TopicChange::Create] };
        assert_eq!(changes, expected, "{topic}: the service created it as the plan has it");
    }

    let second = bounded("apply again", plan::apply(&settings)).await.unwrap();
    for (topic, changes) in &second {
        assert!(changes.is_empty(), "{topic} matches the plan after one apply: {changes:?}");
    }

    let narrower = KafkaSettings { partitions: 2, ..settings.clone() };
    let third = bounded("apply a plan with fewer partitions", plan::apply(&narrower)).await.unwrap();
    for (topic, changes) in &third {
        assert_eq!(changes, &[TopicChange::MorePartitionsThanPlanned { have: 3, planned: 2 }], "{topic}");
    }
}
