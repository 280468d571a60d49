//! The rows staged events wait in, and the records they become.
//!
//! - `event_outbox_batch` (outbox migration 3) is what this build stages:
//!   one row per staging, up to [`EVENTS_PER_ROW`] records together, each
//!   record whole (topic, key, envelope bytes, headers) in the protobuf
//!   [`Batch`]. One insert and one delete per staging, not two per event:
//!   on PostgreSQL those were some 17 % of the distributed ingest's
//!   statement time (docs/performance.md §2).
//! - `event_outbox` holds one row per event, as builds before staged them;
//!   the relay drains it, so a rolling upgrade loses none. The older
//!   builds' relays never read the batch table: a batch waits for a relay
//!   of this build rather than being published as one record.
//!
//! The batch format is protobuf so that a newer build may add fields an
//! older one skips. It is not an event on the log, so it is not in
//! `proto/`: it never leaves the outbox.

use prost::Message;
use wm_proto::{
    Envelope, Payload,
    v1::{DeadLetter, DeadLetterReason},
};

use crate::{OutgoingRecord, envelopes};

/// The most records one batch row holds: a staging of more is split.
pub const EVENTS_PER_ROW: usize = 500;

/// The table a batch row stays in; also the raw topic of its dead letter.
pub const BATCH_TABLE: &str = "event_outbox_batch";

/// The records of one staging.
#[derive(Clone, PartialEq, Message)]
pub struct Batch {
    #[prost(message, repeated, tag = "1")]
    pub records: Vec<Staged>,
}

/// One record, as it is appended.
#[derive(Clone, PartialEq, Message)]
pub struct Staged {
    #[prost(string, tag = "1")]
    pub topic: String,
    #[prost(string, tag = "2")]
    pub key: String,
    /// A protobuf `wmeter.v1.Envelope`, published without being read.
    #[prost(bytes = "vec", tag = "3")]
    pub payload: Vec<u8>,
    #[prost(message, repeated, tag = "4")]
    pub headers: Vec<Header>,
}

#[derive(Clone, PartialEq, Message)]
pub struct Header {
    #[prost(string, tag = "1")]
    pub name: String,
    #[prost(bytes = "vec", tag = "2")]
    pub value: Vec<u8>,
}

/// `records` as the bytes of batch rows, [`EVENTS_PER_ROW`] at most each,
/// with how many records each holds.
pub fn encode(records: Vec<OutgoingRecord>) -> Vec<(Vec<u8>, usize)> {
    let mut rows = Vec::with_capacity(records.len().div_ceil(EVENTS_PER_ROW));
    let mut records = records.into_iter().peekable();
    while records.peek().is_some() {
        let batch = Batch { records: records.by_ref().take(EVENTS_PER_ROW).map(Staged::from).collect() };
        rows.push((batch.encode_to_vec(), batch.records.len()));
    }
    rows
}

/// The records a batch row holds. A row no build can read becomes one
/// dead letter, its bytes kept whole, rather than stopping the relay.
pub fn decode(bytes: Vec<u8>, seq: i64) -> Vec<OutgoingRecord> {
    match Batch::decode(bytes.as_slice()) {
        Ok(batch) => batch.records.into_iter().map(OutgoingRecord::from).collect(),
        Err(e) => {
            tracing::error!(error = %e, seq, "an outbox batch no build can read goes to the dead letters");
            let letter = DeadLetter {
                raw_topic: BATCH_TABLE.to_owned(),
                raw_payload: bytes,
                reason: DeadLetterReason::UndecodableEvent.into(),
                detail: format!("outbox batch {seq}: {e}"),
                received_at: None,
            };
            let envelope = Envelope::new("", "service:outbox", Payload::DeadLetter(letter));
            // A dead letter always has a payload, so always a record.
            envelopes::record(&envelope).into_iter().collect()
        }
    }
}

impl From<OutgoingRecord> for Staged {
    fn from(record: OutgoingRecord) -> Self {
        let headers = record.headers.into_iter().map(|(name, value)| Header { name, value }).collect();
        Self { topic: record.topic, key: record.key, payload: record.payload, headers }
    }
}

impl From<Staged> for OutgoingRecord {
    fn from(staged: Staged) -> Self {
        let headers = staged.headers.into_iter().map(|h| (h.name, h.value)).collect();
        Self { topic: staged.topic, key: staged.key, payload: staged.payload, headers }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(i: usize) -> OutgoingRecord {
        OutgoingRecord::new("t", format!("k{i}"), vec![u8::try_from(i % 256).unwrap()]).with_header("h", "v")
    }

    #[test]
    fn records_come_back_whole_and_in_order_across_rows() {
        let records: Vec<OutgoingRecord> = (0..EVENTS_PER_ROW * 2 + 1).map(record).collect();
        let rows = encode(records.clone());
        let sizes: Vec<usize> = rows.iter().map(|(_, n)| *n).collect();
        assert_eq!(sizes, [EVENTS_PER_ROW, EVENTS_PER_ROW, 1]);
        let back: Vec<OutgoingRecord> = rows.into_iter().flat_map(|(bytes, _)| decode(bytes, 1)).collect();
        assert_eq!(back, records);
    }

    #[test]
    fn a_row_no_build_can_read_becomes_one_dead_letter_holding_its_bytes() {
        let bytes = b"\xff\xff not a batch".to_vec();
        let records = decode(bytes.clone(), 7);
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].topic, wm_proto::topics::DEAD_LETTERS);
        let Some(Payload::DeadLetter(letter)) = Envelope::from_bytes(&records[0].payload).unwrap().payload else {
            panic!("a dead letter")
        };
        assert_eq!(letter.raw_payload, bytes);
        assert_eq!(letter.raw_topic, BATCH_TABLE);
        assert!(letter.detail.starts_with("outbox batch 7: "), "{}", letter.detail);
    }
}
