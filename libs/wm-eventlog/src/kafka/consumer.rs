//! Group members and replays on Kafka.
//!
//! A member runs with `enable.auto.offset.store=false`: [`Consumer::commit`]
//! stores the offsets and commits them synchronously, and librdkafka's
//! auto-commit (also on rebalance and close) only ever flushes stored
//! offsets. A dropped member therefore leaves its uncommitted records to the
//! group. A member notes its group's first assignment ([`Joining`]), so a
//! process is ready only once its members have their share.

use std::{
    collections::BTreeMap,
    fmt,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
    time::Duration,
};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use futures::FutureExt;
use rdkafka::{
    ClientContext, Message, Offset, TopicPartitionList,
    consumer::{BaseConsumer, CommitMode, Consumer as _, ConsumerContext, Rebalance, StreamConsumer},
    error::KafkaError,
    message::{BorrowedMessage, Headers},
    types::RDKafkaErrorCode,
};

use crate::{Consumer, EventLogError, LagReading, Record, Result, TopicPartition, record::next_offsets};

/// How long a lag reading may wait for the broker's watermarks.
const LAG_TIMEOUT: Duration = Duration::from_secs(2);

/// A consumer of this adapter: it notes its first assignment.
pub(super) type GroupConsumer = StreamConsumer<Joining>;

/// Set once the group assigned this member its partitions (perhaps none):
/// the first rebalance is over.
#[derive(Clone, Debug, Default)]
pub(super) struct Joining(Arc<AtomicBool>);

impl ClientContext for Joining {}

impl ConsumerContext for Joining {
    fn post_rebalance(&self, _: &BaseConsumer<Self>, rebalance: &Rebalance<'_>) {
        if let Rebalance::Assign(_) = rebalance {
            self.0.store(true, Ordering::Release);
        }
    }
}

pub(super) struct KafkaConsumer {
    consumer: Arc<GroupConsumer>,
    kind: Kind,
    /// The offset after the last record returned, per partition: this
    /// consumer's position (librdkafka's own runs ahead, at its prefetch).
    /// A replay also moves it past offsets the fetcher skipped.
    positions: BTreeMap<TopicPartition, i64>,
}

enum Kind {
    Member {
        group: String,
    },
    Replay {
        /// The end offset of each partition that had records when the replay started.
        end: BTreeMap<TopicPartition, i64>,
    },
}

impl KafkaConsumer {
    pub(super) fn member(consumer: GroupConsumer, group: &str) -> Self {
        Self {
            consumer: Arc::new(consumer),
            kind: Kind::Member { group: group.to_owned() },
            positions: BTreeMap::new(),
        }
    }

    pub(super) fn replay(consumer: Arc<GroupConsumer>, end: BTreeMap<TopicPartition, i64>) -> Self {
        Self { consumer, kind: Kind::Replay { end }, positions: BTreeMap::new() }
    }

    /// An idle replay also learns its position from the fetcher: offsets
    /// that hold no record it can return (transaction markers, compacted
    /// records) would otherwise keep [`Consumer::caught_up`] false forever.
    fn track_fetch_position(&mut self) {
        let Kind::Replay { .. } = self.kind else { return };
        let Ok(fetched) = self.consumer.position() else { return };
        for element in fetched.elements() {
            if let Offset::Offset(next) = element.offset() {
                let at =
                    self.positions.entry(TopicPartition::new(element.topic(), element.partition())).or_insert(next);
                *at = (*at).max(next);
            }
        }
    }

    fn track(&mut self, records: &[Record]) {
        for record in records {
            self.positions.insert(record.topic_partition(), record.offset + 1);
        }
    }
}

/// The next record, riding out transient errors (a broker restarting, a
/// leader moving): librdkafka reports them and recovers by itself.
async fn next_record(consumer: &GroupConsumer) -> Result<Record> {
    loop {
        match consumer.recv().await {
            Ok(message) => return Ok(to_record(&message)),
            Err(source @ KafkaError::MessageConsumptionFatal(_)) => {
                return Err(EventLogError::Kafka { operation: "consume", source });
            }
            Err(error) => tracing::warn!(%error, "kafka consumer error, retrying"),
        }
    }
}

fn to_record(message: &BorrowedMessage<'_>) -> Record {
    let headers = message
        .headers()
        .map(|headers| {
            headers.iter().map(|h| (h.key.to_owned(), h.value.map(<[u8]>::to_vec).unwrap_or_default())).collect()
        })
        .unwrap_or_default();
    Record {
        topic: message.topic().to_owned(),
        partition: message.partition(),
        offset: message.offset(),
        key: message.key().map(|k| String::from_utf8_lossy(k).into_owned()).unwrap_or_default(),
        payload: message.payload().map(<[u8]>::to_vec).unwrap_or_default(),
        headers,
        timestamp: message.timestamp().to_millis().and_then(DateTime::from_timestamp_millis).unwrap_or_else(Utc::now),
    }
}

/// Commit failures that mean "the group is rebalancing": the offsets stay
/// stored and are committed by the next commit if the partition stays here,
/// or its records go to the new owner.
fn is_rebalance(code: RDKafkaErrorCode) -> bool {
    matches!(
        code,
        RDKafkaErrorCode::RebalanceInProgress
            | RDKafkaErrorCode::IllegalGeneration
            | RDKafkaErrorCode::UnknownMemberId
            | RDKafkaErrorCode::AssignmentLost
            | RDKafkaErrorCode::State
    )
}

#[async_trait]
impl Consumer for KafkaConsumer {
    async fn poll(&mut self, max: usize, timeout: Duration) -> Result<Vec<Record>> {
        let Ok(first) = tokio::time::timeout(timeout, next_record(&self.consumer)).await else {
            self.track_fetch_position();
            return Ok(Vec::new());
        };
        let mut records = vec![first?];
        while records.len() < max {
            match self.consumer.recv().now_or_never() {
                Some(Ok(message)) => records.push(to_record(&message)),
                Some(Err(error)) => {
                    tracing::warn!(%error, "kafka consumer error");
                    break;
                }
                None => break,
            }
        }
        self.track(&records);
        Ok(records)
    }

    async fn commit(&mut self, records: &[Record]) -> Result<()> {
        let Kind::Member { group } = &self.kind else {
            return Ok(());
        };
        let next = next_offsets(records);
        if next.is_empty() {
            return Ok(());
        }
        let mut offsets = TopicPartitionList::with_capacity(next.len());
        for (tp, offset) in &next {
            offsets
                .add_partition_offset(&tp.topic, tp.partition, Offset::Offset(*offset))
                .map_err(EventLogError::kafka("commit"))?;
        }
        match self.consumer.store_offsets(&offsets) {
            Ok(()) => {}
            Err(KafkaError::StoreOffset(RDKafkaErrorCode::State | RDKafkaErrorCode::UnknownPartition)) => {
                tracing::debug!(group, "commit skipped: partitions moved to another member");
                return Ok(());
            }
            Err(source) => {
                return Err(EventLogError::Kafka { operation: "store offsets", source });
            }
        }
        let consumer = self.consumer.clone();
        match tokio::task::spawn_blocking(move || consumer.commit_consumer_state(CommitMode::Sync)).await? {
            Ok(()) | Err(KafkaError::ConsumerCommit(RDKafkaErrorCode::NoOffset)) => Ok(()),
            Err(KafkaError::ConsumerCommit(code)) if is_rebalance(code) => {
                tracing::debug!(group, %code, "commit deferred: the group is rebalancing");
                Ok(())
            }
            Err(source) => Err(EventLogError::Kafka { operation: "commit", source }),
        }
    }

    fn assignment(&self) -> Vec<TopicPartition> {
        let Ok(assignment) = self.consumer.assignment() else {
            return Vec::new();
        };
        let mut out: Vec<TopicPartition> =
            assignment.elements().iter().map(|e| TopicPartition::new(e.topic(), e.partition())).collect();
        out.sort();
        out
    }

    fn assigned(&self) -> bool {
        match &self.kind {
            Kind::Member { .. } => self.consumer.context().0.load(Ordering::Acquire),
            Kind::Replay { .. } => true,
        }
    }

    fn caught_up(&self) -> bool {
        match &self.kind {
            Kind::Member { .. } => false,
            Kind::Replay { end } => end.iter().all(|(tp, end)| self.positions.get(tp).is_some_and(|p| p >= end)),
        }
    }

    fn lag(&mut self) -> LagReading {
        let (consumer, positions) = (self.consumer.clone(), self.positions.clone());
        let reading = tokio::task::spawn_blocking(move || -> std::result::Result<_, KafkaError> {
            // Where nothing was returned yet, the position is the group's
            // committed offset, or the start of the partition.
            let committed = consumer.committed(LAG_TIMEOUT)?;
            let mut lags = Vec::new();
            for element in committed.elements() {
                let tp = TopicPartition::new(element.topic(), element.partition());
                let (low, high) = consumer.fetch_watermarks(element.topic(), element.partition(), LAG_TIMEOUT)?;
                let next = match (positions.get(&tp), element.offset()) {
                    (Some(next), _) => *next,
                    (None, Offset::Offset(next)) => next,
                    (None, _) => low,
                };
                lags.push((tp, (high - next).max(0)));
            }
            Ok(lags)
        });
        async move { reading.await?.map_err(|source| EventLogError::Kafka { operation: "fetch watermarks", source }) }
            .boxed()
    }
}

impl Drop for KafkaConsumer {
    /// Closing a consumer blocks while it leaves its group, and librdkafka
    /// can block there for good: an assignment handed to the rebalance
    /// callback during the close waits, without a limit, for a reply that
    /// never comes (librdkafka #4884, still open; seen in CI as a test stuck
    /// 300 s in `rd_kafka_assign`, under its runtime's shutdown). So the
    /// close runs on a thread of its own, which nothing waits for: not on an
    /// async worker, and not on the blocking pool, whose tasks a runtime's
    /// shutdown waits for (or, once the shutdown has begun, drops, which
    /// closed the consumer on the dropping thread).
    fn drop(&mut self) {
        let consumer = self.consumer.clone();
        CLOSING.fetch_add(1, Ordering::AcqRel);
        let closing = std::thread::Builder::new().name("kafka-close".to_owned()).spawn(move || {
            close(consumer);
            CLOSING.fetch_sub(1, Ordering::AcqRel);
        });
        if let Err(e) = closing {
            CLOSING.fetch_sub(1, Ordering::AcqRel);
            tracing::warn!(error = %e, "no thread to close a Kafka consumer on; closing it here");
        }
    }
}

/// The consumers of this process dropped and not yet closed.
static CLOSING: AtomicUsize = AtomicUsize::new(0);

/// How many dropped consumers of this process are still closing: until
/// then, a member may not have left its group yet. A process that is
/// about to exit, or a test that subscribes the same group again, can wait
/// for none.
pub fn closing() -> usize {
    CLOSING.load(Ordering::Acquire)
}

/// Closes `consumer` once this is its last holder (the [`KafkaConsumer`]
/// being dropped lets go of its own a moment later). A consumer still held
/// elsewhere after [`CLOSE_WAIT`] is left to its last holder.
fn close(mut consumer: Arc<GroupConsumer>) {
    let deadline = std::time::Instant::now() + CLOSE_WAIT;
    loop {
        match Arc::try_unwrap(consumer) {
            Ok(last) => return drop(last),
            Err(shared) if std::time::Instant::now() >= deadline => return drop(shared),
            Err(shared) => consumer = shared,
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// How long [`close`] waits to be a consumer's last holder.
const CLOSE_WAIT: Duration = Duration::from_secs(10);

impl fmt::Debug for KafkaConsumer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Member { group } => f.debug_struct("KafkaConsumer").field("group", group).finish_non_exhaustive(),
            Kind::Replay { .. } => f
                .debug_struct("KafkaConsumer")
                .field("replay", &true)
                .field("positions", &self.positions)
                .finish_non_exhaustive(),
        }
    }
}
