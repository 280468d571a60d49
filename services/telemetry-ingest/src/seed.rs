//! How `wmeter seed` loads a synthetic network into this service's tables,
//! in bulk and without the event log (`COPY` on PostgreSQL): for
//! benchmarks at scale, into an empty database.

use wm_proto::{Envelope, Payload};
use wm_storage::{StorageError, Tx};

use crate::storage::{directory, telemetry};

/// New registrations (`GatewayRegistered`, `MeterRegistered`): the devices
/// uplinks resolve against.
pub async fn registrations(tx: &mut Tx, events: &[Payload]) -> Result<(), StorageError> {
    directory::load(tx, events).await
}

/// New telemetry, as ingest makes it of uplinks ([`crate::ingest::events`]).
pub async fn telemetry(tx: &mut Tx, envelopes: &[Envelope]) -> Result<(), StorageError> {
    telemetry::load_all(tx, envelopes).await
}
