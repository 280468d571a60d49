//! Exactly-once effects for projections whose writes are not idempotent by
//! nature (a counter, a sum). The projection stores, in its own
//! transaction, the next offset of each partition it has applied, and skips
//! the records below it: a batch delivered again after a crash between the
//! projection's commit and the group's offset commit changes nothing.
//!
//! The same table marks a rebuild under way (`wmeter replay`), so that a
//! projection's live batches wait for its end: with checkpoints
//! ([`unapplied`]), or without, for one whose live writes the rebuild's
//! older events would undo ([`hold_while_rebuilding`]).

use std::collections::BTreeMap;

use wm_storage::{
    Db, Migrations, StorageError, Tx,
    bulk::{self, Rows},
    execute, execute_write,
    query::Bind,
    with_tx,
};

use crate::{Record, TopicPartition, projection::Effects, record::next_offsets};

/// The row of a projection's table that is not a partition: its offset is
/// 1 while a rebuild is under way, 0 otherwise.
const REBUILD_ROW: (&str, i32) = ("", -1);

/// A live batch came while the projection is being rebuilt: retry it once
/// the rebuild ended. If a rebuild stopped halfway, run it again.
#[derive(Debug, thiserror::Error)]
#[error("{projection} is being rebuilt (wmeter replay): live batches wait until the rebuild ends")]
pub struct RebuildUnderWay {
    pub projection: String,
}

/// Why [`unapplied`] did not answer.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error(transparent)]
    Rebuilding(#[from] RebuildUnderWay),
}

/// The checkpoint table, applied by each service that projects with it.
pub const MIGRATIONS: Migrations =
    wm_storage::migrations!("checkpoints" in "migrations/checkpoints", 1 => "checkpoints");

/// The records of `records` that `projection` has not applied yet, in
/// order. A live batch is refused while a rebuild is under way.
pub async fn unapplied<'r>(
    tx: &mut Tx,
    projection: &str,
    records: &'r [Record],
    effects: Effects,
) -> Result<Vec<&'r Record>, CheckpointError> {
    hold_while_rebuilding(tx, projection, effects).await?;
    let sql = "SELECT topic, partition_id, next_offset FROM projection_checkpoints WHERE projection = $1";
    let rows: Vec<(String, i32, i64)> =
        with_tx!(tx, conn => sqlx::query_as(sql).bind(projection).fetch_all(&mut **conn).await)
            .map_err(StorageError::from)?;
    let applied: BTreeMap<TopicPartition, i64> =
        rows.into_iter().map(|(topic, partition, next)| (TopicPartition::new(topic, partition), next)).collect();
    Ok(records.iter().filter(|r| applied.get(&r.topic_partition()).is_none_or(|next| r.offset >= *next)).collect())
}

/// Refuses a live batch while a rebuild of `projection` is under way, for
/// a projection that keeps no checkpoints ([`unapplied`] asks for those
/// that do): its writes are idempotent, but a live event applied before
/// the rebuild reaches an older one would be undone by it. Between
/// [`begin_rebuild`] and [`end_rebuild`], in the projection's `reset` and
/// `rebuilt`.
pub async fn hold_while_rebuilding(tx: &mut Tx, projection: &str, effects: Effects) -> Result<(), CheckpointError> {
    if effects == Effects::Live && rebuilding(tx, projection).await? {
        return Err(RebuildUnderWay { projection: projection.to_owned() }.into());
    }
    Ok(())
}

/// Whether a rebuild of `projection` is under way (live batches only ask).
/// On PostgreSQL the row
/// stays locked (shared, so replicas applying their own partitions do not
/// wait for each other) until the transaction ends: a rebuild starting
/// waits for it, and one that started first is seen.
async fn rebuilding(tx: &mut Tx, projection: &str) -> Result<bool, StorageError> {
    const SQL: &str = "SELECT next_offset FROM projection_checkpoints \
                       WHERE projection = $1 AND topic = $2 AND partition_id = $3";
    const LOCKED: &str = "SELECT next_offset FROM projection_checkpoints \
                          WHERE projection = $1 AND topic = $2 AND partition_id = $3 FOR SHARE";
    let sql = match tx.backend() {
        wm_storage::Backend::Sqlite => SQL,
        wm_storage::Backend::Postgres => LOCKED,
    };
    let (topic, partition) = REBUILD_ROW;
    let flag: Option<i64> = with_tx!(tx, conn => sqlx::query_scalar(sql)
        .bind(projection).bind(topic).bind(partition).fetch_optional(&mut **conn).await)?;
    if flag.is_none() {
        // The projection's first batch: the row a rebuild will lock. Not
        // in `advance`'s upsert, which would lock it for every batch and
        // make replicas wait for each other's shared locks.
        execute!(
            tx,
            "INSERT INTO projection_checkpoints (projection, topic, partition_id, next_offset) VALUES ($1, $2, $3, 0) \
             ON CONFLICT (projection, topic, partition_id) DO NOTHING",
            projection,
            topic,
            partition
        )?;
    }
    Ok(flag == Some(1))
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

/// Forgets what `projection` applied and marks a rebuild under way, before
/// the rebuild's first batch. On PostgreSQL it waits for the live batches
/// being applied, then deletes what they advanced too.
pub async fn begin_rebuild(tx: &mut Tx, projection: &str) -> Result<(), StorageError> {
    let (topic, partition) = REBUILD_ROW;
    execute!(
        tx,
        "INSERT INTO projection_checkpoints (projection, topic, partition_id, next_offset) VALUES ($1, $2, $3, 1) \
         ON CONFLICT (projection, topic, partition_id) DO UPDATE SET next_offset = 1",
        projection,
        topic,
        partition
    )?;
    execute!(
        tx,
        "DELETE FROM projection_checkpoints WHERE projection = $1 AND NOT (topic = $2 AND partition_id = $3)",
        projection,
        topic,
        partition
    )?;
    Ok(())
}

/// Lets live batches through again, once the rebuild applied its last
/// (the projection's `rebuilt`), in a write transaction of its own.
pub async fn end_rebuild(db: &Db, projection: &str) -> Result<(), StorageError> {
    let (topic, partition) = REBUILD_ROW;
    let sql =
        "UPDATE projection_checkpoints SET next_offset = 0 WHERE projection = $1 AND topic = $2 AND partition_id = $3";
    execute_write!(db, sql, projection, topic, partition).await?;
    Ok(())
}
