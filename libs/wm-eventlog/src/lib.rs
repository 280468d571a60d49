//! The event log every service appends to and projects from.
//!
//! - [`EventLog`] appends keyed records and hands out [`Consumer`]s: members
//!   of a consumer group ([`EventLog::subscribe`]) or replays from offset 0
//!   ([`EventLog::replay`]). It is object safe: services hold an
//!   `Arc<dyn EventLog>` and never know which implementation is behind it.
//! - [`embedded::EmbeddedLog`] keeps the log in the application's SQLite
//!   database (the embedded mode, one process).
//! - [`kafka::KafkaLog`] talks to Kafka, Redpanda or any Kafka-protocol broker
//!   (the distributed mode).
//!
//! Both give the same guarantees, checked by one contract test suite
//! (`tests/contract`):
//! - records with the same key land on the same partition
//!   ([`partition_for`], Kafka's murmur2 partitioner) and are consumed in the
//!   order they were appended;
//! - delivery is at-least-once: a group's offsets move only when a consumer
//!   calls [`Consumer::commit`] after processing, so whatever a crashed
//!   (dropped) consumer had not committed is delivered again to the group;
//! - a replay reads every record from offset 0 and never moves any group's
//!   offsets.

mod error;
mod log;
mod partitioner;
mod record;
mod settings;

pub mod audit;
pub mod checkpoint;
pub mod embedded;
pub mod envelopes;
pub mod kafka;
pub mod membership;
pub mod namespace;
pub mod outbox;
pub mod projection;
pub mod trace;

pub use error::{EventLogError, Result};
pub use log::{Consumer, ConsumerOptions, EventLog, LagReading, StartFrom};
pub use partitioner::{murmur2, partition_for};
pub use record::{OutgoingRecord, Position, Record, TopicPartition, validate_topic};
pub use settings::{EventLogSettings, open, open_without_db};
