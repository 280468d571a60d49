//! How `wmeter seed` loads a synthetic network into this service's tables,
//! in bulk and without the event log (`COPY` on PostgreSQL): for
//! benchmarks at scale, into an empty database.

use wm_proto::{Envelope, Payload};
use wm_storage::{Db, StorageError, Tx};

use crate::{
    projections::state,
    storage::{
        lists::{self, Filter},
        registrations,
        rows::GatewayRow,
    },
};

/// How many gateways are registered: a seed goes into an empty database.
pub async fn gateways(db: &Db) -> Result<i64, StorageError> {
    lists::count::<GatewayRow>(db, Filter::All).await
}

/// New registrations (`GatewayRegistered`, `MeterRegistered`).
pub async fn registrations(tx: &mut Tx, events: &[Payload]) -> Result<(), StorageError> {
    registrations::load(tx, events).await
}

/// Telemetry as ingest makes it of uplinks, applied to the devices' state
/// (last seen, totals, counters) as the state projection would, without
/// its claims: seeded readings are never delivered again.
pub async fn telemetry(tx: &mut Tx, envelopes: &[Envelope]) -> Result<(), StorageError> {
    state::apply_all(tx, envelopes, state::Readings::AllNew).await
}
