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

/// SQLite's page cache on a seeding connection, in KiB (SQLite's default
/// is 2 MiB). The devices' rows and the indexes by device (activity by
/// gateway, readings by meter) take a batch's writes all over the file,
/// and with the default cache most of those pages were read back from the
/// OS (`pread`, a third of the profile at 200,000 readings).
const SQLITE_CACHE_KIB: u32 = 1 << 20;

/// Gives a seeding transaction's SQLite connection [`SQLITE_CACHE_KIB`]
/// of page cache; nothing on PostgreSQL.
pub async fn widen_cache(tx: &mut Tx) -> Result<(), StorageError> {
    if let Tx::Sqlite(conn, _) = tx {
        let pragma = format!("PRAGMA cache_size = -{SQLITE_CACHE_KIB}");
        sqlx::query(sqlx::AssertSqlSafe(pragma)).execute(&mut **conn).await?;
    }
    Ok(())
}

/// Where `wmeter seed` puts reading `i` of `count` among `meters`: its
/// meter, `i × meters / count`, and how far through the seeded span it
/// falls (its meter's last reading at 1). Each meter's readings are
/// consecutive and spread evenly, so that a batch's readings fall on a few
/// meters: their state, their rollups and the index on (meter, time) take
/// a few rows each, not one per reading.
pub fn reading_place(i: u64, meters: u32, count: u64) -> (u64, f64) {
    let (meters, count) = (u128::from(meters), u128::from(count));
    let m = (u128::from(i) * meters / count) as u64;
    // The readings of meter m are first..end: the least i with i × meters / count ≥ m, and m + 1's.
    let first_of = |m: u64| (u128::from(m) * count).div_ceil(meters) as u64;
    let (first, end) = (first_of(m), first_of(m + 1));
    (m, (i + 1 - first) as f64 / (end - first) as f64)
}

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

#[cfg(test)]
mod tests {
    use super::reading_place;

    #[test]
    fn each_meter_s_readings_are_consecutive_and_end_now() {
        let places: Vec<(u64, f64)> = (21..24).map(|i| reading_place(i, 30, 90)).collect();
        assert_eq!(places, [(7, 1.0 / 3.0), (7, 2.0 / 3.0), (7, 1.0)]);
        let fewer: Vec<(u64, f64)> = (0..3).map(|i| reading_place(i, 10, 3)).collect();
        assert_eq!(fewer, [(0, 1.0), (3, 1.0), (6, 1.0)], "fewer readings than meters: one each, spread");
    }
}
