//! The MQTT contract (`docs/mqtt.md`): topics, and uplink payloads parsed
//! into typed messages or rejected with a dead-letter reason. Parsing never
//! panics, whatever the bytes.

mod payload;
pub mod topic;

pub use payload::{Body, MAX_PAYLOAD_BYTES, MeterRef, Unit, Uplink, parse};
pub use topic::Kind;
use wm_proto::v1::DeadLetterReason;

/// Why an uplink is not ingested: its dead-letter reason and a detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    pub reason: DeadLetterReason,
    pub detail: String,
}

impl Rejection {
    pub fn new(reason: DeadLetterReason, detail: impl Into<String>) -> Self {
        Self { reason, detail: detail.into() }
    }

    pub fn unknown_kind(detail: impl Into<String>) -> Self {
        Self::new(DeadLetterReason::UnknownKind, detail)
    }

    pub fn unknown_gateway(detail: impl Into<String>) -> Self {
        Self::new(DeadLetterReason::UnknownGateway, detail)
    }

    pub fn malformed(detail: impl Into<String>) -> Self {
        Self::new(DeadLetterReason::MalformedPayload, detail)
    }

    pub fn out_of_range(detail: impl Into<String>) -> Self {
        Self::new(DeadLetterReason::OutOfRange, detail)
    }

    /// The metric label and the word `docs/mqtt.md` uses.
    pub fn label(&self) -> &'static str {
        match self.reason {
            DeadLetterReason::UnknownGateway => "unknown-gateway",
            DeadLetterReason::UnknownKind => "unknown-kind",
            DeadLetterReason::MalformedPayload => "malformed-payload",
            DeadLetterReason::UnknownMeter => "unknown-meter",
            DeadLetterReason::PayloadTooLarge => "payload-too-large",
            DeadLetterReason::OutOfRange => "out-of-range",
            DeadLetterReason::RateLimited => "rate-limited",
            DeadLetterReason::UndecodableEvent => "undecodable-event",
            DeadLetterReason::Unspecified => "unspecified",
        }
    }
}
