//! How `wmeter seed` loads a synthetic network into this service's tables,
//! in bulk and without the event log (`COPY` on PostgreSQL): for
//! benchmarks at scale, into an empty database. The rollups are filled
//! directly: seeded readings never pass through the log.

use wm_proto::{Envelope, Payload};
use wm_storage::{Db, StorageError, Tx};

use crate::{
    AnalyticsSettings,
    domain::rollup,
    storage::{directory, partitions, rollups, telemetry},
};

/// Telemetry from `from_us` to `to_us` is coming: on PostgreSQL, the
/// partitions of its months, so that no row of it waits in a default one.
pub async fn months(db: &Db, from_us: i64, to_us: i64) -> Result<(), StorageError> {
    partitions::cover(db, from_us, to_us).await.map(drop)
}

/// New registrations (`GatewayRegistered`, `MeterRegistered`): the devices
/// uplinks resolve against.
pub async fn registrations(tx: &mut Tx, events: &[Payload]) -> Result<(), StorageError> {
    directory::load(tx, events).await
}

/// New telemetry, as ingest makes it of uplinks ([`crate::ingest::events`]),
/// and its readings in the rollups, unless `analytics.rollups` is off.
pub async fn telemetry(tx: &mut Tx, envelopes: &[Envelope], analytics: &AnalyticsSettings) -> Result<(), StorageError> {
    telemetry::load_all(tx, envelopes).await?;
    if analytics.rollups {
        let readings = crate::projections::readings_of(envelopes);
        rollups::add(tx, &rollup::increments(&readings, analytics.tz())).await?;
    }
    Ok(())
}
