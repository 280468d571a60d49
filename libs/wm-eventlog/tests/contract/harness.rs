//! Builds each implementation, and the bounded waits every test uses.

use std::{collections::BTreeMap, sync::Arc, time::Duration};

use tokio::time::Instant;
use wm_eventlog::{
    Consumer, ConsumerOptions, EventLog, OutgoingRecord, Record,
    embedded::{EmbeddedLog, EmbeddedSettings},
    kafka::{KafkaLog, KafkaSettings},
    partition_for,
};
use wm_test_support::{TestDb, servers};

/// The longest any single wait may take before the test fails. Generous for
/// a loaded 2-core machine; a healthy broker answers in well under a second.
pub const WAIT: Duration = Duration::from_secs(30);
/// One poll inside a wait loop.
const POLL: Duration = Duration::from_millis(200);

pub struct Harness {
    pub log: Arc<dyn EventLog>,
    pub partitions: i32,
    /// Keeps the SQLite file of the embedded log alive.
    _db: Option<TestDb>,
}

impl Harness {
    pub async fn embedded() -> Harness {
        let db = TestDb::sqlite().await;
        let settings = EmbeddedSettings::default();
        let partitions = settings.partitions;
        let log = EmbeddedLog::open(db.db(), settings).await.expect("open the embedded log");
        Harness { log: Arc::new(log), partitions, _db: Some(db) }
    }

    /// The broker named by `WM_TEST_KAFKA_BROKERS`, or `None` (skip) when it
    /// is unset; panics instead when `WM_REQUIRE_SERVERS=1`.
    pub async fn kafka() -> Option<Harness> {
        let brokers = servers::kafka_brokers()?;
        let settings = KafkaSettings {
            client_id: "wm-eventlog-test".to_owned(),
            partitions: 4,
            replication_factor: 1,
            session_timeout_ms: 6_000,
            heartbeat_interval_ms: 500,
            delivery_timeout_ms: 15_000,
            request_timeout_ms: 10_000,
            ..KafkaSettings::with_brokers(brokers)
        };
        let partitions = settings.partitions;
        let log = KafkaLog::connect(settings).expect("build the Kafka clients");
        tokio::time::timeout(WAIT, log.ready())
            .await
            .expect("the Kafka broker did not answer in time")
            .expect("the Kafka broker is not reachable");
        Some(Harness { log: Arc::new(log), partitions, _db: None })
    }

    /// A new, empty topic of its own.
    pub async fn topic(&self, name: &str) -> String {
        let topic = format!("wm-test.{name}.{}", uuid::Uuid::now_v7().simple());
        bounded("create topic", self.log.ensure_topics(&[&topic])).await.expect("create topic");
        topic
    }

    pub async fn subscribe(&self, group: &str, topic: &str) -> Box<dyn Consumer> {
        bounded("subscribe", self.log.subscribe(group, &[topic], ConsumerOptions::default())).await.expect("subscribe")
    }

    /// Waits until every dropped Kafka member has closed, so has left its
    /// group ([`wm_eventlog::kafka::closing`]): a member leaves from a
    /// thread of its own, a moment after it is dropped. A member that joins
    /// before that leave reaches Tansu can be handed a rebalance led by the
    /// member that left, which Tansu never ends (real Kafka does), so a test
    /// that drops a member and subscribes another to its group waits here
    /// first. The embedded log's members leave as they are dropped.
    pub async fn closed(&self) {
        assert!(wm_eventlog::kafka::until_closed(WAIT).await, "a dropped Kafka member still closing after {WAIT:?}");
    }

    pub async fn append_all(&self, records: Vec<OutgoingRecord>) {
        bounded("append", self.log.append_batch(records)).await.expect("append");
    }

    /// One record on every partition of `topic`, appended last by tests
    /// that must prove something was *not* delivered: a consumer that has
    /// seen every marker has seen everything before them on every partition.
    pub async fn append_markers(&self, topic: &str) -> Vec<OutgoingRecord> {
        let markers: Vec<OutgoingRecord> = marker_keys(self.partitions)
            .into_iter()
            .map(|key| OutgoingRecord::new(topic, key, b"marker".to_vec()))
            .collect();
        self.append_all(markers.clone()).await;
        markers
    }
}

pub fn group(name: &str) -> String {
    format!("wm-test-{name}-{}", uuid::Uuid::now_v7().simple())
}

/// `n` records with keys `key-0..key-{keys}` in rotation and payloads
/// `{prefix}-{i}`, so every payload is unique.
pub fn records(topic: &str, prefix: &str, n: usize, keys: usize) -> Vec<OutgoingRecord> {
    (0..n)
        .map(|i| OutgoingRecord::new(topic, format!("key-{}", i % keys), format!("{prefix}-{i}").into_bytes()))
        .collect()
}

/// A key for each partition, in partition order.
pub fn marker_keys(partitions: i32) -> Vec<String> {
    (0..partitions)
        .map(|p| (0..).map(|i| format!("marker-{i}")).find(|k| partition_for(k, partitions) == p).unwrap_or_default())
        .collect()
}

pub fn is_marker(record: &Record) -> bool {
    record.payload == b"marker"
}

/// Runs `what`, failing the test if it takes longer than [`WAIT`].
pub async fn bounded<T>(what: &str, fut: impl Future<Output = T>) -> T {
    match tokio::time::timeout(WAIT, fut).await {
        Ok(value) => value,
        Err(_) => panic!("{what} took longer than {WAIT:?}"),
    }
}

/// Polls (without committing) until `done` holds for everything received,
/// failing the test after [`WAIT`].
pub async fn poll_until(
    consumer: &mut dyn Consumer,
    what: &str,
    mut done: impl FnMut(&[Record]) -> bool,
) -> Vec<Record> {
    let deadline = Instant::now() + WAIT;
    let mut all = Vec::new();
    while !done(&all) {
        assert!(
            Instant::now() < deadline,
            "{what}: not done after {WAIT:?}; received {} records: {:?}",
            all.len(),
            summary(&all)
        );
        all.extend(consumer.poll(500, POLL).await.expect("poll"));
    }
    all
}

/// Polls until at least `n` records have arrived.
pub async fn poll_count(consumer: &mut dyn Consumer, what: &str, n: usize) -> Vec<Record> {
    poll_until(consumer, what, |all| all.len() >= n).await
}

/// Polls until every partition's marker has arrived.
pub async fn poll_past_markers(consumer: &mut dyn Consumer, what: &str, partitions: i32) -> Vec<Record> {
    let wanted = usize::try_from(partitions).unwrap_or(0);
    poll_until(consumer, what, |all| all.iter().filter(|r| is_marker(r)).count() >= wanted).await
}

/// Payloads per key, in the order received.
pub fn by_key<'a>(records: impl IntoIterator<Item = &'a Record>) -> BTreeMap<String, Vec<Vec<u8>>> {
    let mut out: BTreeMap<String, Vec<Vec<u8>>> = BTreeMap::new();
    for r in records {
        out.entry(r.key.clone()).or_default().push(r.payload.clone());
    }
    out
}

/// Payloads per key, in the order appended.
pub fn expected_by_key(records: &[OutgoingRecord]) -> BTreeMap<String, Vec<Vec<u8>>> {
    let mut out: BTreeMap<String, Vec<Vec<u8>>> = BTreeMap::new();
    for r in records {
        out.entry(r.key.clone()).or_default().push(r.payload.clone());
    }
    out
}

pub fn payloads<'a>(records: impl IntoIterator<Item = &'a Record>) -> Vec<String> {
    let mut out: Vec<String> = records.into_iter().map(|r| String::from_utf8_lossy(&r.payload).into_owned()).collect();
    out.sort();
    out
}

pub fn summary(records: &[Record]) -> Vec<String> {
    records
        .iter()
        .take(20)
        .map(|r| format!("{}@{}:{}", r.partition, r.offset, String::from_utf8_lossy(&r.payload)))
        .collect()
}
