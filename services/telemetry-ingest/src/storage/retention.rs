//! Retention: telemetry older than the configured period is deleted, in
//! small batches so no transaction holds the tables for long.

use wm_storage::{Db, StorageError, with_pool};

/// Tables pruned, the column holding each row's time (µs), and its key.
/// Hourly rollups go with the readings; daily rollups are kept.
const TABLES: [(&str, &str, &str); 6] = [
    ("gateway_activity", "occurred_at", "event_id"),
    ("ble_activity", "occurred_at", "event_id"),
    ("readings", "occurred_at", "event_id"),
    ("discoveries", "occurred_at", "event_id"),
    ("ingest_messages", "received_at", "gateway_id, message_id"),
    ("meter_hourly", "bucket", "meter_id, bucket"),
];
/// Rows deleted per statement.
const BATCH: i64 = 5_000;

/// Deletes every row older than `before` (µs); returns how many.
pub async fn prune(db: &Db, before: i64) -> Result<u64, StorageError> {
    let mut deleted = 0;
    for (table, column, key) in TABLES {
        // `DELETE … LIMIT` is not portable; a keyed subquery is.
        let sql =
            format!("DELETE FROM {table} WHERE ({key}) IN (SELECT {key} FROM {table} WHERE {column} < $1 LIMIT $2)");
        loop {
            let n = with_pool!(db, pool => sqlx::query(sqlx::AssertSqlSafe(sql.clone()))
                .bind(before)
                .bind(BATCH)
                .execute(pool)
                .await
                .map(|r| r.rows_affected()))?;
            deleted += n;
            if n < u64::try_from(BATCH).unwrap_or(u64::MAX) {
                break;
            }
        }
    }
    Ok(deleted)
}
