use std::{fmt::Debug, time::Duration};

use async_trait::async_trait;
use futures::future::BoxFuture;

use crate::{OutgoingRecord, Position, Record, Result, TopicPartition, embedded::EmbeddedLog};

/// An append-only, partitioned, replayable log of events.
///
/// Object safe: services hold an `Arc<dyn EventLog>`.
#[async_trait]
pub trait EventLog: Send + Sync + Debug {
    /// `"embedded"` or `"kafka"`, for logs and `/readyz`.
    fn kind(&self) -> &'static str;

    /// The embedded log itself, when this is it (unwrapped): a service on
    /// its database appends in its own transaction, the outbox being the
    /// log (DESIGN §4).
    fn embedded(&self) -> Option<&EmbeddedLog> {
        None
    }

    /// Creates the topics that do not exist yet (with the configured
    /// partition count). Services call it at start-up for the topics they
    /// produce or consume; existing topics are left as they are.
    async fn ensure_topics(&self, topics: &[&str]) -> Result<()>;

    /// Appends one record and returns where it was written once it is
    /// durable (Kafka: acknowledged by all in-sync replicas).
    async fn append(&self, record: OutgoingRecord) -> Result<Position>;

    /// Appends many records, keeping their order within each key, and
    /// returns their positions in the same order. Either every record is
    /// written or an error is returned (Kafka: some may have been written;
    /// at-least-once producers retry the whole batch).
    async fn append_batch(&self, records: Vec<OutgoingRecord>) -> Result<Vec<Position>>;

    /// Joins consumer group `group` on `topics`. The group's members share
    /// the partitions; each starts from the group's committed offset (or
    /// `options.start` when the group has none), and partitions move between
    /// members when one joins or is dropped.
    async fn subscribe(&self, group: &str, topics: &[&str], options: ConsumerOptions) -> Result<Box<dyn Consumer>>;

    /// Reads every partition of `topics` from offset 0, outside any group:
    /// no group's committed offsets are read or moved, and
    /// [`Consumer::commit`] does nothing.
    async fn replay(&self, topics: &[&str]) -> Result<Box<dyn Consumer>>;

    /// Fails when the log cannot be reached (used by `/readyz`).
    async fn ready(&self) -> Result<()>;
}

/// A member of a consumer group, or a replay.
///
/// Delivery is at-least-once: records are delivered again (to this group)
/// unless [`commit`](Consumer::commit) was called for them. Dropping a
/// consumer leaves its group, and its uncommitted records go to the members
/// that take over its partitions.
#[async_trait]
pub trait Consumer: Send + Debug {
    /// Waits up to `timeout` for at least one record, then returns up to
    /// `max` of those available. An empty vector means the timeout passed.
    /// Within a partition, records come in offset order.
    ///
    /// Cancellation safe: a poll dropped before it returns (say, in a
    /// `tokio::select!`) has taken nothing, and the next poll sees the same
    /// records.
    async fn poll(&mut self, max: usize, timeout: Duration) -> Result<Vec<Record>>;

    /// Marks `records` as processed: for each partition, the group's offset
    /// moves past the highest offset given (commit-up-to). Call it only once
    /// their effects are durable. On success the offsets are committed,
    /// except for records of partitions that moved to another member since
    /// they were polled: those are skipped, and that member receives them
    /// again (projections are idempotent, so this is safe).
    async fn commit(&mut self, records: &[Record]) -> Result<()>;

    /// The partitions this consumer currently reads. A Kafka consumer learns
    /// its assignment while it polls, so it is empty until the first polls.
    fn assignment(&self) -> Vec<TopicPartition>;

    /// Whether the group has given this member its share of the partitions
    /// (perhaps none) at least once: a Kafka member joins while it polls.
    /// An embedded consumer, and a replay, read from the start.
    fn assigned(&self) -> bool;

    /// For a replay: true once every record that existed when the replay
    /// started has been returned by [`poll`](Consumer::poll). Always false
    /// for a group member, which follows the log forever.
    fn caught_up(&self) -> bool;

    /// For each partition read, how many records lie past this consumer's
    /// position (the consumer lag), as of this call. Partitions whose
    /// position is not known yet are left out. The reading borrows nothing
    /// of the consumer, so it can finish apart from its polls: on Kafka it
    /// is a round trip to the broker for each partition.
    fn lag(&mut self) -> LagReading;
}

/// A reading of a consumer's lag, by partition ([`Consumer::lag`]).
pub type LagReading = BoxFuture<'static, Result<Vec<(TopicPartition, i64)>>>;

/// Where a group starts reading a partition it has no committed offset for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StartFrom {
    /// From the first record (`auto.offset.reset=earliest`).
    #[default]
    Earliest,
    /// Only records appended from now on (`auto.offset.reset=latest`).
    Latest,
}

/// Options of one group member.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConsumerOptions {
    pub start: StartFrom,
}

impl ConsumerOptions {
    pub fn start_from(mut self, start: StartFrom) -> Self {
        self.start = start;
        self
    }
}
