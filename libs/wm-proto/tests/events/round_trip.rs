//! Every payload variant survives encode → decode unchanged.

use chrono::DateTime;
use wm_proto::{Envelope, SCHEMA_VERSION};

use crate::samples;

const TRACEPARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

#[test]
fn every_payload_round_trips() {
    let occurred = DateTime::from_timestamp(1_750_000_000, 987_654_321).expect("valid time");
    for payload in samples::all() {
        let name = payload.name();
        let sent = Envelope::new("65f0a1b2c3d4e5f6abcdef01", "gateway:AB12CD34EF", payload)
            .with_occurred_at(occurred)
            .with_correlation_id(TRACEPARENT);

        let received = Envelope::from_bytes(&sent.to_bytes()).expect(name);

        assert_eq!(received, sent, "{name}");
        assert_eq!(received.occurred_at_utc(), Some(occurred), "{name}");
        assert_eq!(received.schema_version, SCHEMA_VERSION, "{name}");
        assert_eq!(received.topic(), sent.topic(), "{name}");
    }
}

#[test]
fn unknown_fields_from_a_newer_producer_are_ignored() {
    let sent = Envelope::new("d", "a", samples::all().remove(0));
    let mut bytes = sent.to_bytes();
    // Field 15 (unused), wire type 0 (varint), value 1: what an added
    // envelope field looks like to an older consumer.
    bytes.extend_from_slice(&[15 << 3, 1]);

    let received = Envelope::from_bytes(&bytes).expect("decodes");
    assert_eq!(received, sent);
}
