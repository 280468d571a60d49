//! Building, encoding and decoding [`Envelope`]s.

use chrono::{DateTime, Utc};
use prost::Message;
use uuid::Uuid;

use crate::time;
use crate::v1::Envelope;
use crate::v1::envelope::Payload;

/// The schema version this crate writes into every envelope. It goes up when
/// `wmeter.v1` gains fields or events (never for a breaking change: that is
/// a new `wmeter.v2` package).
pub const SCHEMA_VERSION: u32 = 5;

/// Why bytes from the log are not a usable envelope. Decoding never panics.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    /// The bytes are not a protobuf `wmeter.v1.Envelope`.
    #[error("bytes are not a wmeter.v1.Envelope")]
    Malformed(#[from] prost::DecodeError),
    /// The envelope decoded, but carries no payload this build knows: it was
    /// empty, or written by a newer schema version with a new event.
    #[error(
        "event {event_id:?} has no payload known to schema version {SCHEMA_VERSION} \
         (written with schema version {schema_version})"
    )]
    UnknownPayload {
        /// The envelope's `event_id`, possibly empty.
        event_id: String,
        /// The envelope's `schema_version`.
        schema_version: u32,
    },
}

impl DecodeError {
    /// Whether the event was written by a newer schema version with an event
    /// this build does not know. A consumer skips (and counts) such events,
    /// and dead-letters every other decode error.
    pub fn is_from_newer_schema(&self) -> bool {
        matches!(self, Self::UnknownPayload { schema_version, .. } if *schema_version > SCHEMA_VERSION)
    }
}

/// The envelope `actor` of a gateway: `gateway:<serial>`.
pub fn gateway_actor(serial: &str) -> String {
    format!("gateway:{serial}")
}

impl Envelope {
    /// A new event with a fresh UUIDv7 `event_id`, `occurred_at` and
    /// `recorded_at` both now, this crate's [`SCHEMA_VERSION`] and no
    /// correlation id.
    ///
    /// `device_id` is the partition key (see `proto/README.md` for which id
    /// each event carries); `actor` is a user id or [`gateway_actor`].
    pub fn new(device_id: impl Into<String>, actor: impl Into<String>, payload: Payload) -> Self {
        let now = time::now();
        Self {
            event_id: Uuid::now_v7().to_string(),
            occurred_at: Some(now),
            recorded_at: Some(now),
            device_id: device_id.into(),
            actor: actor.into(),
            correlation_id: String::new(),
            schema_version: SCHEMA_VERSION,
            payload: Some(payload),
        }
    }

    /// Sets when the event happened, e.g. the gateway's own time.
    #[must_use]
    pub fn with_occurred_at(mut self, at: DateTime<Utc>) -> Self {
        self.occurred_at = Some(time::to_timestamp(at));
        self
    }

    /// Sets the W3C `traceparent` of the trace that produced the event.
    #[must_use]
    pub fn with_correlation_id(mut self, traceparent: impl Into<String>) -> Self {
        self.correlation_id = traceparent.into();
        self
    }

    /// The topic this envelope is published on, `None` without a payload.
    pub fn topic(&self) -> Option<&'static str> {
        self.payload.as_ref().map(Payload::topic)
    }

    /// `occurred_at` as a chrono time, if set and in range.
    pub fn occurred_at_utc(&self) -> Option<DateTime<Utc>> {
        self.occurred_at.as_ref().and_then(time::to_datetime)
    }

    /// `recorded_at` as a chrono time, if set and in range.
    pub fn recorded_at_utc(&self) -> Option<DateTime<Utc>> {
        self.recorded_at.as_ref().and_then(time::to_datetime)
    }

    /// The protobuf encoding, as written to the event log.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.encode_to_vec()
    }

    /// Decodes an event-log record. Fails, without panicking, on bytes that
    /// are not an envelope and on an envelope without a known payload.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, DecodeError> {
        let envelope = Self::decode(bytes)?;
        if envelope.payload.is_none() {
            return Err(DecodeError::UnknownPayload {
                event_id: envelope.event_id,
                schema_version: envelope.schema_version,
            });
        }
        Ok(envelope)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::v1::MeterDeleted;

    fn meter_deleted() -> Payload {
        Payload::MeterDeleted(MeterDeleted { id: "0123456789abcdef01234567".into() })
    }

    #[test]
    fn new_fills_the_metadata() {
        let envelope = Envelope::new("0123456789abcdef01234567", "user-1", meter_deleted());
        let id = Uuid::parse_str(&envelope.event_id).expect("event_id is a UUID");
        assert_eq!(id.get_version_num(), 7);
        assert_eq!(envelope.occurred_at, envelope.recorded_at);
        assert!(envelope.occurred_at.is_some());
        assert_eq!(envelope.schema_version, SCHEMA_VERSION);
        assert_eq!(envelope.topic(), Some(crate::topics::REGISTRY));
    }

    #[test]
    fn event_ids_are_unique_and_time_ordered() {
        let first = Envelope::new("d", "a", meter_deleted());
        let second = Envelope::new("d", "a", meter_deleted());
        assert!(first.event_id < second.event_id);
    }

    #[test]
    fn with_occurred_at_keeps_recorded_at() {
        let at = DateTime::from_timestamp(1_700_000_000, 5_000).expect("valid time");
        let envelope = Envelope::new("d", "a", meter_deleted()).with_occurred_at(at);
        assert_eq!(envelope.occurred_at_utc(), Some(at));
        assert_ne!(envelope.recorded_at_utc(), Some(at));
    }

    #[test]
    fn gateway_actor_is_prefixed() {
        assert_eq!(gateway_actor("AB12CD34EF"), "gateway:AB12CD34EF");
    }

    #[test]
    fn empty_bytes_are_an_unknown_payload() {
        let err = Envelope::from_bytes(&[]).expect_err("no payload");
        assert!(matches!(err, DecodeError::UnknownPayload { .. }), "{err}");
        assert!(!err.is_from_newer_schema());
    }

    #[test]
    fn an_unknown_event_from_a_newer_schema_is_recognised() {
        let newer =
            Envelope { schema_version: SCHEMA_VERSION + 1, payload: None, ..Envelope::new("d", "a", meter_deleted()) };
        let err = Envelope::from_bytes(&newer.to_bytes()).expect_err("unknown payload");
        assert!(err.is_from_newer_schema(), "{err}");
    }

    #[test]
    fn truncated_bytes_are_malformed() {
        let bytes = Envelope::new("d", "a", meter_deleted()).to_bytes();
        let err = Envelope::from_bytes(&bytes[..bytes.len() - 1]).expect_err("truncated");
        assert!(matches!(err, DecodeError::Malformed(_)), "{err}");
        assert!(!err.is_from_newer_schema());
    }
}
