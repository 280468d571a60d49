use std::time::Duration;

#[cfg(feature = "kafka")]
use rdkafka::error::{KafkaError, RDKafkaErrorCode};
use thiserror::Error;
use wm_storage::StorageError;

pub type Result<T, E = EventLogError> = std::result::Result<T, E>;

/// Everything that can go wrong in the event log, on either implementation.
#[derive(Debug, Error)]
pub enum EventLogError {
    /// A topic name Kafka would refuse (the embedded log refuses it too, so
    /// a name that works in one mode works in the other).
    #[error("invalid topic name '{topic}': {reason}")]
    InvalidTopic { topic: String, reason: &'static str },
    /// A setting cannot be used. `key` names the config key.
    #[error("{key}: {message}")]
    InvalidSettings { key: &'static str, message: String },
    /// The topic does not exist on the broker (create it with
    /// [`EventLog::ensure_topics`](crate::EventLog::ensure_topics)).
    #[error("topic '{0}' does not exist")]
    UnknownTopic(String),
    #[error("event log storage failed")]
    Storage(#[from] StorageError),
    #[error("event log query failed")]
    Database(#[from] sqlx::Error),
    /// A stored record could not be decoded.
    #[error("record {topic}/{partition}@{offset} is corrupt: {reason}")]
    CorruptRecord { topic: String, partition: i32, offset: i64, reason: &'static str },
    #[cfg(feature = "kafka")]
    #[error("kafka: {operation} failed")]
    Kafka {
        operation: &'static str,
        #[source]
        source: KafkaError,
    },
    #[cfg(feature = "kafka")]
    #[error("kafka: cannot create topic '{topic}': {code}")]
    TopicCreation { topic: String, code: RDKafkaErrorCode },
    #[cfg(feature = "kafka")]
    #[error("kafka: cannot {action} of topic '{topic}': {code}")]
    TopicChange { topic: String, action: &'static str, code: RDKafkaErrorCode },
    #[error("{operation} timed out after {after:?}")]
    Timeout { operation: &'static str, after: Duration },
    /// An envelope without a payload has no topic and cannot be published.
    #[error("event {0:?} has no payload")]
    EmptyEnvelope(String),
    /// A background task (a blocking Kafka call) panicked or was cancelled.
    #[error("event log background task failed")]
    Background(#[from] tokio::task::JoinError),
}

impl EventLogError {
    #[cfg(feature = "kafka")]
    pub(crate) fn kafka(operation: &'static str) -> impl FnOnce(KafkaError) -> EventLogError {
        move |source| EventLogError::Kafka { operation, source }
    }

    /// True when the log could not be reached (the API answers 503 and
    /// `/readyz` fails), as opposed to a bad request or corrupt data.
    pub fn is_unavailable(&self) -> bool {
        match self {
            EventLogError::Storage(e) => e.is_unavailable(),
            EventLogError::Database(e) => wm_storage::is_unavailable(e),
            #[cfg(feature = "kafka")]
            EventLogError::Kafka { .. } => true,
            EventLogError::Timeout { .. } => true,
            _ => false,
        }
    }
}
