//! How `wmeter seed` loads a synthetic network into this service's tables,
//! in bulk and without the event log (`COPY` on PostgreSQL): for
//! benchmarks at scale, into an empty database. The rollups are filled
//! directly: seeded readings never pass through the log.

use wm_proto::{Envelope, Payload};
use wm_storage::{Db, StorageError, Tx, execute};

use crate::{
    AnalyticsSettings,
    domain::rollup::{self, Increments},
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

/// The indexes whose order is not the seeder's. The seeder writes meter
/// after meter, each meter's readings spread over the whole span (see
/// [`reading_place`]), so each of a batch's readings lands at a page of its
/// own in an index by time, or by gateway and time: on SQLite the covering
/// index of a gateway's activity (telemetry migration 10) took 8× the bytes
/// written and 2.9× the time of the whole load, at 100,000 meters and
/// 3,000,000 readings (docs/performance.md §8); the meters' hours and days
/// by their bucket are the same on PostgreSQL. Ingest does not pay this:
/// new rows' times are now, on those indexes' last pages.
const SCATTERED_INDEXES: [&str; 5] =
    ["gateway_activity_gateway", "gateway_activity_time", "readings_time", "meter_hourly_bucket", "meter_daily_bucket"];

/// Indexes dropped for a load, to be built again by [`Deferred::build`]:
/// one sort each instead of an entry at a time. Until then the database
/// lacks them, so a seed that fails or is killed leaves a database to
/// throw away (it is not empty, and `wmeter seed` refuses it).
#[derive(Debug)]
#[must_use = "the indexes are missing until built"]
pub struct Deferred(Vec<String>);

/// Drops [`SCATTERED_INDEXES`], keeping their definitions as the
/// migrations made them. On PostgreSQL each is the parent of its
/// partitions' indexes, and dropping it drops theirs; its definition reads
/// `ON ONLY` the parent, and is built again without the `ONLY`, so that
/// every partition gets its index back.
pub async fn defer_scattered_indexes(db: &Db) -> Result<Deferred, StorageError> {
    let mut tx = db.begin_write().await?;
    let mut definitions = Vec::new();
    for name in SCATTERED_INDEXES {
        let definition: Option<String> = match &mut tx {
            Tx::Sqlite(conn, _) => {
                sqlx::query_scalar("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?")
                    .bind(name)
                    .fetch_optional(&mut **conn)
                    .await?
            }
            Tx::Postgres(conn) => {
                sqlx::query_scalar("SELECT pg_get_indexdef(to_regclass($1))").bind(name).fetch_one(&mut **conn).await?
            }
        };
        if let Some(sql) = definition {
            execute!(&mut tx, sqlx::AssertSqlSafe(format!("DROP INDEX {name}")))?;
            definitions.push(sql.replace(" ON ONLY ", " ON "));
        }
    }
    tx.commit().await?;
    Ok(Deferred(definitions))
}

impl Deferred {
    /// Builds the dropped indexes again, as the migrations defined them.
    pub async fn build(self, db: &Db) -> Result<(), StorageError> {
        if self.0.is_empty() {
            return Ok(());
        }
        let mut tx = db.begin_write().await?;
        widen_cache(&mut tx).await?;
        for sql in self.0 {
            execute!(&mut tx, sqlx::AssertSqlSafe(sql))?;
        }
        tx.commit().await
    }
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
/// partitions of its months, so that none of it lands in the past or the
/// future.
pub async fn months(db: &Db, from_us: i64, to_us: i64) -> Result<(), StorageError> {
    partitions::cover(db, from_us, to_us).await.map(drop)
}

/// New registrations (`GatewayRegistered`, `MeterRegistered`): the devices
/// uplinks resolve against.
pub async fn registrations(tx: &mut Tx, events: &[Payload]) -> Result<(), StorageError> {
    directory::load(tx, events).await
}

/// New telemetry, as ingest makes it of uplinks ([`crate::ingest::events`]),
/// and its readings in the rollups, unless `analytics.rollups` is off. The
/// rollups of gateways and of the network are added to `held`, for
/// [`HeldRollups::add`] after the load.
pub async fn telemetry(
    tx: &mut Tx,
    envelopes: &[Envelope],
    analytics: &AnalyticsSettings,
    held: &mut HeldRollups,
) -> Result<(), StorageError> {
    telemetry::load_all(tx, envelopes).await?;
    if analytics.rollups {
        let readings = crate::projections::readings_of(envelopes);
        let mut increments = rollup::increments(&readings, analytics.tz());
        held.hold(&mut increments);
        rollups::add(tx, &increments).await?;
    }
    Ok(())
}

/// The days of the gateways and of the network, summed over the whole load
/// and added once at its end. Each of the seeder's batches covers a few
/// hundred meters over the whole span, and so most gateways' days: added
/// batch by batch, each of those rows was updated once per batch, a third
/// of PostgreSQL's time at 100,000 meters and 3,000,000 readings
/// (docs/performance.md §8). The meters' rollups are a few meters' rows
/// per batch, each written about once: they go with their batch.
#[derive(Debug, Default)]
pub struct HeldRollups(Increments);

impl HeldRollups {
    /// Takes `increments`' gateway and network days into the held sums.
    fn hold(&mut self, increments: &mut Increments) {
        for (key, sum) in std::mem::take(&mut increments.gateway_day) {
            self.0.gateway_day.entry(key).or_default().absorb(sum);
        }
        for (key, sum) in std::mem::take(&mut increments.network_day) {
            self.0.network_day.entry(key).or_default().absorb(sum);
        }
    }

    /// Adds the held sums to the rollups, in one transaction.
    pub async fn add(self, db: &Db) -> Result<(), StorageError> {
        let mut tx = db.begin_write().await?;
        rollups::add(&mut tx, &self.0).await?;
        tx.commit().await
    }
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
