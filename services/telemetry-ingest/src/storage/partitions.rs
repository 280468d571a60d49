//! PostgreSQL's month partitions of the time series (readings and activity,
//! migrations 9 and 12): each table is its past, its months one after the
//! other, and its future. The coming months are made ahead of their rows,
//! and a month past the retention is dropped whole. SQLite keeps each
//! series in one table, and there these do nothing.

use std::future::Future;

use wm_storage::{Db, StorageError};

/// The partitioned tables, in the order ingest writes them.
const SERIES: [&str; 3] = ["gateway_activity", "ble_activity", "readings"];

/// Makes sure every month from the one holding `from_us` to the one holding
/// `to_us` (µs since the epoch) has its partitions, and every month between
/// those and the table's own; returns how many were created. The rows the
/// past or the future held for such a month move into it; a month the rows
/// kept by an upgrade cover is not made.
pub async fn cover(db: &Db, from_us: i64, to_us: i64) -> Result<i32, StorageError> {
    match db {
        Db::Sqlite(_) => Ok(0),
        Db::Postgres(pool) => {
            each_table(|table| {
                sqlx::query_scalar("SELECT telemetry_table_cover($1, $2, $3)")
                    .bind(table)
                    .bind(from_us)
                    .bind(to_us)
                    .fetch_one(pool)
            })
            .await
        }
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
        Db::Postgres(pool) => {
            each_table(|table| {
                sqlx::query_scalar("SELECT telemetry_table_drop_before($1, $2)")
                    .bind(table)
                    .bind(before_us)
                    .fetch_one(pool)
            })
            .await
        }
    }
}

/// Runs `one` for each table, each in a transaction of its own: a table is
/// locked to the end of it, and two locked in one could deadlock with
/// ingest, which writes several in one transaction. A table that fails (a
/// lock not had within 2 s, while a long read holds it) leaves the others
/// done; the first failure is returned after all were tried, for the
/// caller to try again later. Returns how many partitions were made or
/// dropped.
async fn each_table<F, Fut>(mut one: F) -> Result<i32, StorageError>
where
    F: FnMut(&'static str) -> Fut,
    Fut: Future<Output = Result<i32, sqlx::Error>>,
{
    let (mut done, mut failed) = (0, None);
    for table in SERIES {
        match one(table).await {
            Ok(n) => done += n,
            Err(e) => {
                failed.get_or_insert(e);
            }
        }
    }
    failed.map_or(Ok(done), |e| Err(e.into()))
}
