//! PostgreSQL's month partitions of the time series (readings and activity,
//! migrations 9 and 12): each table is its past, its months one after the
//! other, and its future. The coming months are made ahead of their rows,
//! and a month past the retention is dropped whole. SQLite keeps each
//! series in one table, and there these do nothing.

use wm_storage::{Db, StorageError};

/// Makes sure every month from the one holding `from_us` to the one holding
/// `to_us` (µs since the epoch) has its partitions, and every month between
/// those and the table's own; returns how many were created. The rows the
/// past or the future held for such a month move into it; a month the rows
/// kept by an upgrade cover is not made. Fails, to be tried again, when a
/// lock on a table is not had within 2 s.
pub async fn cover(db: &Db, from_us: i64, to_us: i64) -> Result<i32, StorageError> {
    match db {
        Db::Sqlite(_) => Ok(0),
        Db::Postgres(pool) => Ok(sqlx::query_scalar("SELECT telemetry_partitions_cover($1, $2)")
            .bind(from_us)
            .bind(to_us)
            .fetch_one(pool)
            .await?),
    }
}

/// Drops the partitions that end at or before `before_us` once a month or
/// the one an upgrade kept its rows in (migration 9) is among them, the past
/// with them, and makes an empty past up to the oldest partition left;
/// returns how many it dropped. The rows of the month `before_us` falls in,
/// and the past's until then, are deleted one by one
/// ([`super::retention::prune`]).
pub async fn drop_before(db: &Db, before_us: i64) -> Result<i32, StorageError> {
    match db {
        Db::Sqlite(_) => Ok(0),
        Db::Postgres(pool) => Ok(sqlx::query_scalar("SELECT telemetry_partitions_drop_before($1)")
            .bind(before_us)
            .fetch_one(pool)
            .await?),
    }
}
