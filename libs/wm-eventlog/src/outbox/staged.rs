//! The rows staged events wait in, and the records they become.
//!
//! - `event_outbox_batch` (outbox migration 3) is what this build stages:
//!   one row per staging, up to [`EVENTS_PER_ROW`] records together, each
//!   record whole (topic, key, envelope bytes, headers) in the protobuf
//!   [`Batch`]. One insert and one delete per staging, not two per event:
//!   on PostgreSQL those were some 19 % of the distributed ingest's
//!   statement time (docs/performance.md §2).
//! - `event_outbox` holds one row per event, as builds before staged them;
//!   the relay drains it, so a rolling upgrade loses none. The older
//!   builds' relays never read the batch table: a batch waits for a relay
//!   of this build rather than being published as one record.
//!
//! The batch format is protobuf so that a newer build may add fields an
//! older one skips. It is not an event on the log, so it is not in
//! `proto/`: it never leaves the outbox.

use chrono::Utc;
use prost::Message;
use wm_proto::{
    Envelope, Payload, topics,
    v1::{DeadLetter, DeadLetterReason},
};

use crate::OutgoingRecord;

/// The most records one batch row holds: a staging of more is split.
pub const EVENTS_PER_ROW: usize = 500;

/// The table a batch row stays in; also the raw topic of its dead letters.
pub const BATCH_TABLE: &str = "event_outbox_batch";

/// The most bytes of an unreadable row one dead letter holds: a larger
/// row becomes several, in order, so that the log refuses none of them
/// (Kafka's default limit is 1 MB a record), as ingest's dead letters are
/// cut at the same size.
pub const DEAD_LETTER_BYTES: usize = 256 * 1024;

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

/// What a staged row becomes on the log.
#[derive(Debug, PartialEq)]
pub enum Split {
    /// The records it holds, as staged.
    Records(Vec<OutgoingRecord>),
    /// A row no build can read: its bytes whole, in dead letters.
    DeadLetters(Vec<OutgoingRecord>),
}

impl Split {
    pub fn into_records(self) -> Vec<OutgoingRecord> {
        match self {
            Self::Records(records) | Self::DeadLetters(records) => records,
        }
    }
}

/// The records of batch row `seq`, staged holding `events`. A row no build
/// can read, or one holding another count (cut short), becomes dead letters
/// of its bytes rather than stopping the relay or losing what it held.
pub fn decode(bytes: Vec<u8>, seq: i64, events: i32) -> Split {
    let problem = match Batch::decode(bytes.as_slice()) {
        Ok(batch) if usize::try_from(events).is_ok_and(|events| events == batch.records.len()) => {
            return Split::Records(batch.records.into_iter().map(OutgoingRecord::from).collect());
        }
        Ok(batch) => format!("holds {} records, staged holding {events}", batch.records.len()),
        Err(e) => e.to_string(),
    };
    Split::DeadLetters(dead_letters(BATCH_TABLE, &format!("outbox batch {seq}"), &problem, &bytes))
}

/// The dead letters of `row`, a row of `table` that cannot become its
/// records for `problem`: its bytes whole, [`DEAD_LETTER_BYTES`] at most
/// each. Logged as an error: an operator puts the events back by hand.
pub fn dead_letters(table: &str, row: &str, problem: &str, bytes: &[u8]) -> Vec<OutgoingRecord> {
    tracing::error!(
        table,
        row,
        problem,
        bytes = bytes.len(),
        "a staged row no build can read goes to the dead letters"
    );
    let parts: Vec<&[u8]> = if bytes.is_empty() { vec![bytes] } else { bytes.chunks(DEAD_LETTER_BYTES).collect() };
    let count = parts.len();
    let now = Utc::now();
    let letter = |(i, part): (usize, &[u8])| {
        let detail = match count {
            1 => format!("{row}: {problem}"),
            _ => format!("{row}, part {} of {count}: {problem}", i + 1),
        };
        let letter = DeadLetter {
            raw_topic: table.to_owned(),
            raw_payload: part.to_vec(),
            reason: DeadLetterReason::UndecodableEvent.into(),
            detail,
            received_at: Some(wm_proto::time::to_timestamp(now)),
        };
        let envelope = Envelope::new("", "service:outbox", Payload::DeadLetter(letter)).with_occurred_at(now);
        OutgoingRecord::new(topics::DEAD_LETTERS, "", envelope.to_bytes())
    };
    parts.into_iter().enumerate().map(letter).collect()
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

    /// The dead letters `split` holds, read back.
    fn letters(split: Split) -> Vec<DeadLetter> {
        let Split::DeadLetters(records) = split else { panic!("dead letters, not records: {split:?}") };
        let letter = |r: OutgoingRecord| {
            assert_eq!((r.topic.as_str(), r.key.as_str()), (topics::DEAD_LETTERS, ""));
            match Envelope::from_bytes(&r.payload).unwrap().payload {
                Some(Payload::DeadLetter(letter)) => letter,
                other => panic!("a dead letter: {other:?}"),
            }
        };
        records.into_iter().map(letter).collect()
    }

    #[test]
    fn records_come_back_whole_and_in_order_across_rows() {
        let records: Vec<OutgoingRecord> = (0..EVENTS_PER_ROW * 2 + 1).map(record).collect();
        let rows = encode(records.clone());
        let sizes: Vec<usize> = rows.iter().map(|(_, n)| *n).collect();
        assert_eq!(sizes, [EVENTS_PER_ROW, EVENTS_PER_ROW, 1]);
        let back = rows.into_iter().flat_map(|(bytes, n)| decode(bytes, 1, i32::try_from(n).unwrap()).into_records());
        assert_eq!(back.collect::<Vec<_>>(), records);
    }

    #[test]
    fn a_row_no_build_can_read_becomes_one_dead_letter_holding_its_bytes() {
        let bytes = b"\xff\xff not a batch".to_vec();
        let letters = letters(decode(bytes.clone(), 7, 3));
        assert_eq!(letters.len(), 1);
        assert_eq!(letters[0].raw_payload, bytes);
        assert_eq!(letters[0].raw_topic, BATCH_TABLE);
        assert_eq!(letters[0].reason(), DeadLetterReason::UndecodableEvent);
        assert!(letters[0].detail.starts_with("outbox batch 7: "), "{}", letters[0].detail);
    }

    #[test]
    fn a_row_cut_short_at_a_record_s_end_goes_whole_to_the_dead_letters() {
        let (bytes, _) = encode((0..3).map(record).collect()).remove(0);
        let (one, _) = encode(vec![record(0)]).remove(0);
        let cut = bytes[..one.len()].to_vec();
        assert_eq!(Batch::decode(cut.as_slice()).unwrap().records.len(), 1, "it reads, one record short of three");
        let letters = letters(decode(cut.clone(), 8, 3));
        assert_eq!(letters.len(), 1);
        assert_eq!(letters[0].raw_payload, cut);
        assert_eq!(letters[0].detail, "outbox batch 8: holds 1 records, staged holding 3");
    }

    #[test]
    fn a_large_row_is_kept_whole_across_dead_letters_of_a_bounded_size() {
        let bytes: Vec<u8> = (0..DEAD_LETTER_BYTES * 2 + 5).map(|i| u8::try_from(i % 251).unwrap()).collect();
        let letters = letters(Split::DeadLetters(dead_letters(BATCH_TABLE, "outbox batch 9", "bad", &bytes)));
        let sizes: Vec<usize> = letters.iter().map(|l| l.raw_payload.len()).collect();
        assert_eq!(sizes, [DEAD_LETTER_BYTES, DEAD_LETTER_BYTES, 5]);
        assert_eq!(letters.iter().flat_map(|l| l.raw_payload.clone()).collect::<Vec<_>>(), bytes);
        assert_eq!(letters[2].detail, "outbox batch 9, part 3 of 3: bad");
    }
}
