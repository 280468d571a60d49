//! Appending: offsets are assigned inside one `BEGIN IMMEDIATE` transaction
//! per batch, while holding the log's write lock, so concurrent appends
//! never race for an offset and never fail on a busy snapshot. A service's
//! own write transaction holds that lock too, so it may append in place
//! ([`append_in`]): the outbox is the log itself (DESIGN §4).

use std::collections::{BTreeSet, HashMap};

use chrono::Utc;
use sqlx::{QueryBuilder, Sqlite, SqliteConnection};

use super::{Shared, codec, store};
use crate::{OutgoingRecord, Position, Result, TopicPartition, partition_for, validate_topic};

/// Rows per INSERT: 7 bound values each, well under SQLite's 32766.
const ROWS_PER_INSERT: usize = 500;

pub(super) async fn append_batch(shared: &Shared, records: Vec<OutgoingRecord>) -> Result<Vec<Position>> {
    if records.is_empty() {
        return Ok(Vec::new());
    }
    let positions = {
        let turn = shared.write.turn().await;
        let mut tx = turn.pool().begin_with("BEGIN IMMEDIATE").await?;
        let positions = write(shared, &mut tx, records).await?;
        tx.commit().await?;
        positions
    };
    shared.changed.notify_waiters();
    Ok(positions)
}

/// Appends `records` in `conn`'s transaction, which holds the log's write
/// lock. Consumers are not woken: that is for after the commit. The ends
/// they are told of are raised at once; were the transaction to roll back,
/// a consumer would only read a partition once too often.
pub(super) async fn append_in(
    shared: &Shared,
    conn: &mut SqliteConnection,
    records: Vec<OutgoingRecord>,
) -> Result<Vec<Position>> {
    if records.is_empty() {
        return Ok(Vec::new());
    }
    write(shared, conn, records).await
}

async fn write(shared: &Shared, conn: &mut SqliteConnection, records: Vec<OutgoingRecord>) -> Result<Vec<Position>> {
    let partitions = partition_counts(shared, conn, &records).await?;
    let placed: Vec<(TopicPartition, OutgoingRecord)> = records
        .into_iter()
        .map(|r| {
            let n = partitions.get(&r.topic).copied().unwrap_or(1);
            (TopicPartition::new(&r.topic, partition_for(&r.key, n)), r)
        })
        .collect();
    let positions = assign_offsets(conn, &placed).await?;
    insert(conn, &placed, &positions).await?;
    for ((tp, _), position) in placed.iter().zip(&positions) {
        shared.saw_end(tp, position.offset + 1);
    }
    Ok(positions)
}

/// Each topic's partition count, creating new topics on `conn`: the one
/// connection that may write while the lock is held.
async fn partition_counts(
    shared: &Shared,
    conn: &mut SqliteConnection,
    records: &[OutgoingRecord],
) -> Result<HashMap<String, i32>> {
    let mut counts = HashMap::new();
    for record in records {
        if !counts.contains_key(&record.topic) {
            validate_topic(&record.topic)?;
            counts.insert(record.topic.clone(), shared.partitions_on(conn, &record.topic).await?);
        }
    }
    Ok(counts)
}

/// The offset of each record, in input order: consecutive per partition,
/// continuing after the partition's last record.
async fn assign_offsets(
    conn: &mut SqliteConnection,
    placed: &[(TopicPartition, OutgoingRecord)],
) -> Result<Vec<Position>> {
    let partitions: BTreeSet<&TopicPartition> = placed.iter().map(|(tp, _)| tp).collect();
    let partitions: Vec<&TopicPartition> = partitions.into_iter().collect();
    let mut next = store::end_offsets(conn, &partitions).await?;
    let mut positions = Vec::with_capacity(placed.len());
    for (tp, _) in placed {
        let offset = next.entry(tp.clone()).or_insert(0);
        positions.push(Position { topic: tp.topic.clone(), partition: tp.partition, offset: *offset });
        *offset += 1;
    }
    Ok(positions)
}

async fn insert(
    conn: &mut SqliteConnection,
    placed: &[(TopicPartition, OutgoingRecord)],
    positions: &[Position],
) -> Result<()> {
    let now = Utc::now().timestamp_millis();
    let rows: Vec<_> = placed.iter().zip(positions).collect();
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        let mut insert: QueryBuilder<Sqlite> = QueryBuilder::new(
            "INSERT INTO event_log_records \
             (topic, partition_id, record_offset, record_key, payload, headers, appended_at_ms) ",
        );
        insert.push_values(chunk, |mut row, ((tp, record), position)| {
            row.push_bind(tp.topic.as_str())
                .push_bind(tp.partition)
                .push_bind(position.offset)
                .push_bind(record.key.as_str())
                .push_bind(record.payload.as_slice())
                .push_bind(codec::encode(&record.headers))
                .push_bind(now);
        });
        // Its text follows the row count: not kept prepared (wm_storage::bulk).
        insert.build().persistent(false).execute(&mut *conn).await?;
    }
    Ok(())
}
