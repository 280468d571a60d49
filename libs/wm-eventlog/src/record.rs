use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use crate::{EventLogError, Result};

/// A record to append. `key` picks the partition (see
/// [`partition_for`](crate::partition_for)): records with the same key are
/// consumed in the order they were appended. Headers carry the trace context.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutgoingRecord {
    pub topic: String,
    pub key: String,
    pub payload: Vec<u8>,
    pub headers: Vec<(String, Vec<u8>)>,
}

impl OutgoingRecord {
    pub fn new(topic: impl Into<String>, key: impl Into<String>, payload: impl Into<Vec<u8>>) -> Self {
        Self { topic: topic.into(), key: key.into(), payload: payload.into(), headers: Vec::new() }
    }

    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<Vec<u8>>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }
}

/// A consumed record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub topic: String,
    pub partition: i32,
    pub offset: i64,
    /// The key it was appended with. (A Kafka key that is not UTF-8, which
    /// this crate never writes, is decoded lossily; a null key reads as "".)
    pub key: String,
    pub payload: Vec<u8>,
    pub headers: Vec<(String, Vec<u8>)>,
    /// When the record was appended (Kafka: its create time).
    pub timestamp: DateTime<Utc>,
}

impl Record {
    /// The value of the first header called `name`.
    pub fn header(&self, name: &str) -> Option<&[u8]> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_slice())
    }

    pub fn topic_partition(&self) -> TopicPartition {
        TopicPartition::new(&self.topic, self.partition)
    }
}

/// Where an appended record was written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub topic: String,
    pub partition: i32,
    pub offset: i64,
}

/// One partition of one topic.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TopicPartition {
    pub topic: String,
    pub partition: i32,
}

impl TopicPartition {
    pub fn new(topic: impl Into<String>, partition: i32) -> Self {
        Self { topic: topic.into(), partition }
    }
}

/// Kafka's rule for topic names: 1–249 characters from `[a-zA-Z0-9._-]`,
/// and not `.` or `..`.
pub fn validate_topic(topic: &str) -> Result<()> {
    let reason = if topic.is_empty() {
        Some("it is empty")
    } else if topic.len() > 249 {
        Some("it is longer than 249 characters")
    } else if topic == "." || topic == ".." {
        Some("'.' and '..' are reserved")
    } else if !topic.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-')) {
        Some("only ASCII letters, digits, '.', '_' and '-' are allowed")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(EventLogError::InvalidTopic { topic: topic.to_owned(), reason }),
        None => Ok(()),
    }
}

/// For each partition, the offset after the highest record given.
pub(crate) fn next_offsets(records: &[Record]) -> BTreeMap<TopicPartition, i64> {
    let mut next: BTreeMap<TopicPartition, i64> = BTreeMap::new();
    for record in records {
        let offset = next.entry(record.topic_partition()).or_insert(0);
        *offset = (*offset).max(record.offset + 1);
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kafka_topic_rules() {
        assert!(validate_topic("wmeter.telemetry.readings.v1").is_ok());
        assert!(validate_topic("a_b-C.9").is_ok());
        for bad in ["", ".", "..", "with space", "slash/topic", "é", &"x".repeat(250)] {
            assert!(validate_topic(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn header_lookup_takes_first() {
        let mut r = Record {
            topic: "t".into(),
            partition: 0,
            offset: 0,
            key: "k".into(),
            payload: vec![],
            headers: vec![("a".into(), b"1".to_vec()), ("a".into(), b"2".to_vec())],
            timestamp: Utc::now(),
        };
        assert_eq!(r.header("a"), Some(&b"1"[..]));
        assert_eq!(r.header("b"), None);
        r.headers.clear();
        assert_eq!(r.header("a"), None);
    }
}
