//! Events on the log: the one way a service publishes a `wmeter.v1`
//! [`Envelope`], so every producer places, keys and labels them alike.

use wm_proto::Envelope;

use crate::{EventLog, EventLogError, OutgoingRecord, Position, Record, Result};

/// The record header that carries the producing trace's `traceparent`.
pub const TRACEPARENT: &str = "traceparent";

/// The record `envelope` is appended as: on its payload's topic, keyed by
/// `key`, with the envelope's correlation id as the [`TRACEPARENT`] header
/// when it has one.
pub fn record_keyed(envelope: &Envelope, key: impl Into<String>) -> Result<OutgoingRecord> {
    let topic = envelope.topic().ok_or_else(|| EventLogError::EmptyEnvelope(envelope.event_id.clone()))?;
    let record = OutgoingRecord::new(topic, key, envelope.to_bytes());
    Ok(match envelope.correlation_id.as_str() {
        "" => record,
        traceparent => record.with_header(TRACEPARENT, traceparent),
    })
}

/// The record `envelope` is appended as, keyed by its `device_id` (the
/// partition key of DESIGN §4), so a device's events stay in order.
pub fn record(envelope: &Envelope) -> Result<OutgoingRecord> {
    record_keyed(envelope, envelope.device_id.clone())
}

/// Appends `envelopes` in one batch, each keyed by its `device_id`.
pub async fn publish(log: &dyn EventLog, envelopes: &[Envelope]) -> Result<Vec<Position>> {
    let records = envelopes.iter().map(record).collect::<Result<Vec<_>>>()?;
    log.append_batch(records).await
}

/// The envelope a record holds, or `None`, logged, for one this build
/// cannot read: a projection skips it and moves on, and the event stays on
/// the log for a later build.
pub fn decode(record: &Record) -> Option<Envelope> {
    Envelope::from_bytes(&record.payload)
        .inspect_err(|e| {
            tracing::warn!(
                error = %e, topic = record.topic, partition = record.partition, offset = record.offset,
                "skipping an event this build cannot read"
            );
        })
        .ok()
}

#[cfg(test)]
mod tests {
    use wm_proto::{Payload, v1::MeterDeleted};

    use super::*;

    const METER: &str = "0123456789abcdef01234567";

    #[test]
    fn an_envelope_goes_to_its_topic_keyed_by_its_device() {
        let envelope = Envelope::new(METER, "u1", Payload::MeterDeleted(MeterDeleted { id: METER.into() }))
            .with_correlation_id("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        let record = record(&envelope).unwrap();
        assert_eq!((record.topic.as_str(), record.key.as_str()), (wm_proto::topics::REGISTRY, METER));
        assert_eq!(Envelope::from_bytes(&record.payload).unwrap(), envelope);
        assert_eq!(record.headers, vec![(TRACEPARENT.to_owned(), envelope.correlation_id.into_bytes())]);
    }

    #[test]
    fn an_envelope_without_payload_is_refused() {
        let empty = Envelope { payload: None, ..Envelope::default() };
        assert!(matches!(record(&empty), Err(EventLogError::EmptyEnvelope(_))));
    }
}
