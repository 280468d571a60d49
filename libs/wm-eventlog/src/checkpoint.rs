//! Exactly-once effects for projections whose writes are not idempotent by
//! nature (a counter, a sum). The projection stores, in its own
//! transaction, the next offset of each partition it has applied, and skips
//! the records below it: a batch delivered again after a crash between the
//! projection's commit and the group's offset commit changes nothing.

use std::collections::BTreeMap;

use wm_storage::{
    Migrations, StorageError, Tx,
    bulk::{self, Rows},
    execute,
    query::Bind,
    with_tx,
};

use crate::{Record, TopicPartition, record::next_offsets};

/// The checkpoint table, applied by each service that projects with it.
pub const MIGRATIONS: Migrations =
    wm_storage::migrations!("checkpoints" in "migrations/checkpoints", 1 => "checkpoints");

/// The records of `records` that `projection` has not applied yet, in order.
pub async fn unapplied<'r>(
    tx: &mut Tx,
    projection: &str,
    records: &'r [Record],
) -> Result<Vec<&'r Record>, StorageError> {
    let sql = "SELECT topic, partition_id, next_offset FROM projection_checkpoints WHERE projection = $1";
    let rows: Vec<(String, i32, i64)> =
        with_tx!(tx, conn => sqlx::query_as(sql).bind(projection).fetch_all(&mut **conn).await)?;
    let applied: BTreeMap<TopicPartition, i64> =
        rows.into_iter().map(|(topic, partition, next)| (TopicPartition::new(topic, partition), next)).collect();
    Ok(records.iter().filter(|r| applied.get(&r.topic_partition()).is_none_or(|next| r.offset >= *next)).collect())
}

/// Records that `projection` has applied `records`, in the transaction that
/// applied them. Checkpoints only move forward.
pub async fn advance(tx: &mut Tx, projection: &str, records: &[Record]) -> Result<(), StorageError> {
    let mut rows = Rows::new(4);
    for (tp, next) in next_offsets(records) {
        rows.push([projection.into(), tp.topic.into(), Bind::Int(tp.partition.into()), Bind::Int(next)]);
    }
    let tail = " ON CONFLICT (projection, topic, partition_id) \
                DO UPDATE SET next_offset = excluded.next_offset \
                WHERE projection_checkpoints.next_offset < excluded.next_offset";
    bulk::execute(tx, "INSERT INTO projection_checkpoints (projection, topic, partition_id, next_offset)", tail, rows)
        .await?;
    Ok(())
}

/// Forgets what `projection` applied, before a rebuild.
pub async fn clear(tx: &mut Tx, projection: &str) -> Result<(), StorageError> {
    execute!(tx, "DELETE FROM projection_checkpoints WHERE projection = $1", projection)?;
    Ok(())
}
