//! Expiry: a topic's records appended before a cut-off are deleted, a chunk
//! at a time under the log's write lock, except
//! - what a group that committed since the cut-off has still to read: a
//!   projection that is running never loses a record it has not applied;
//! - the last record of each partition, whose offset is where the next
//!   append continues (offsets are never reused).
//!
//! A group silent since before the cut-off protects nothing, as on Kafka,
//! where records expire whoever has read them. SQLite reuses the freed
//! pages, so under a steady load the file stops growing once records
//! expire as fast as they arrive.

use super::{Shared, store};
use crate::Result;

/// Records deleted per statement, so that ingest waits for the write lock
/// one short statement at a time.
const CHUNK: i64 = 5_000;

/// Deletes what of `topic` was appended before `before_ms` (Unix ms) and
/// no group still needs; returns how many records went.
pub(super) async fn expire(shared: &Shared, topic: &str, before_ms: i64) -> Result<u64> {
    let partitions = {
        let mut conn = shared.pool.acquire().await?;
        store::topic_partitions(&mut conn, topic).await?
    };
    let mut deleted = 0;
    for partition in 0..partitions.unwrap_or(0) {
        loop {
            let gone = {
                let turn = shared.write.turn().await;
                sqlx::query(
                    "DELETE FROM event_log_records WHERE topic = $1 AND partition_id = $2 AND record_offset IN ( \
                       SELECT record_offset FROM event_log_records \
                       WHERE topic = $1 AND partition_id = $2 AND appended_at_ms < $3 \
                         AND record_offset < (SELECT MAX(record_offset) FROM event_log_records \
                                              WHERE topic = $1 AND partition_id = $2) \
                         AND record_offset < COALESCE((SELECT MIN(committed_offset) FROM event_log_group_offsets \
                                              WHERE topic = $1 AND partition_id = $2 AND committed_at_ms >= $3), \
                                              9223372036854775807) \
                       ORDER BY record_offset LIMIT $4)",
                )
                .bind(topic)
                .bind(partition)
                .bind(before_ms)
                .bind(CHUNK)
                .execute(turn.pool())
                .await?
                .rows_affected()
            };
            deleted += gone;
            if gone < u64::try_from(CHUNK).unwrap_or(u64::MAX) {
                break;
            }
            tokio::task::yield_now().await;
        }
    }
    Ok(deleted)
}

/// Whether a partition of `topic` lost its first records to [`expire`].
pub(super) async fn expired(shared: &Shared, topic: &str) -> Result<bool> {
    let mut conn = shared.pool.acquire().await?;
    for partition in 0..store::topic_partitions(&mut conn, topic).await?.unwrap_or(0) {
        let first: Option<i64> = sqlx::query_scalar(
            "SELECT MIN(record_offset) FROM event_log_records WHERE topic = $1 AND partition_id = $2",
        )
        .bind(topic)
        .bind(partition)
        .fetch_one(&mut *conn)
        .await?;
        if first.is_some_and(|offset| offset > 0) {
            return Ok(true);
        }
    }
    Ok(false)
}
