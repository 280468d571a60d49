//! The registry's projections: its own events (run only to rebuild, since
//! its commands write the tables), and device state from telemetry.

pub mod devices;
pub mod state;

use wm_eventlog::Record;
use wm_proto::Envelope;

/// The envelope a record holds, or `None` (logged) for one this build
/// cannot read: skipping it keeps the projection moving, and the event
/// stays on the log for a later build.
fn decode(record: &Record) -> Option<Envelope> {
    match Envelope::from_bytes(&record.payload) {
        Ok(envelope) => Some(envelope),
        Err(e) => {
            tracing::warn!(
                error = %e, topic = record.topic, partition = record.partition, offset = record.offset,
                "skipping an event this build cannot read"
            );
            None
        }
    }
}
