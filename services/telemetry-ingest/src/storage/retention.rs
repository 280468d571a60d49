//! Retention: telemetry older than the configured period is deleted, and
//! the rollups' claims once no redelivery can need them, in small batches
//! so no transaction holds the tables for long.

use wm_storage::{Db, StorageError, prune};

/// Tables pruned, the column holding each row's time (µs), and its key.
/// Hourly rollups go with the readings; daily rollups are kept. The time
/// series' key holds their time, as PostgreSQL partitions them by it
/// (`super::partitions`). Each has an index on its time (migration 11).
pub const TABLES: [(&str, &str, &str); 6] = [
    ("gateway_activity", "occurred_at", "event_id, occurred_at"),
    ("ble_activity", "occurred_at", "event_id, occurred_at"),
    ("readings", "occurred_at", "event_id, occurred_at"),
    ("discoveries", "occurred_at", "event_id"),
    ("ingest_messages", "received_at", "observed_at, gateway_id, message_id"),
    ("meter_hourly", "bucket", "meter_id, bucket"),
];
/// Deletes every row older than `before` (µs); returns how many.
pub async fn prune(db: &Db, before: i64) -> Result<u64, StorageError> {
    let mut deleted = 0;
    for (table, column, key) in TABLES {
        deleted += prune::older_than(db, table, column, key, before).await?;
    }
    Ok(deleted)
}

/// The rollups' claims: pruned like [`TABLES`], on a period of their own.
pub const ROLLUP_CLAIMS: (&str, &str, &str) = ("rollup_claims", "claimed_at", "event_id");

/// Forgets the rollups' claims on readings made before `before` (µs):
/// kept only as long as the log may deliver a reading again.
pub async fn forget_rollup_claims(db: &Db, before: i64) -> Result<u64, StorageError> {
    let (table, column, key) = ROLLUP_CLAIMS;
    prune::older_than(db, table, column, key, before).await
}
