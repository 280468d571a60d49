//! Every SQL statement of the embedded log, except the append itself.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use sqlx::{QueryBuilder, Row, Sqlite, SqliteConnection, SqlitePool, sqlite::SqliteRow};

use super::codec;
use crate::{EventLogError, Record, Result, TopicPartition};

pub(super) async fn topic_partitions(conn: &mut SqliteConnection, topic: &str) -> Result<Option<i32>> {
    let row = sqlx::query("SELECT partitions FROM event_log_topics WHERE topic = $1")
        .bind(topic)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(row.map(|r| r.try_get::<i32, _>(0)).transpose()?)
}

/// Creates the topic unless it exists; either way returns its partition count.
pub(super) async fn create_topic(conn: &mut SqliteConnection, topic: &str, partitions: i32) -> Result<i32> {
    sqlx::query("INSERT INTO event_log_topics (topic, partitions) VALUES ($1, $2) ON CONFLICT (topic) DO NOTHING")
        .bind(topic)
        .bind(partitions)
        .execute(&mut *conn)
        .await?;
    let stored = topic_partitions(conn, topic).await?;
    Ok(stored.unwrap_or(partitions))
}

/// Up to `limit` records of `tp` from offset `from` on, in offset order.
pub(super) async fn read(
    conn: &mut SqliteConnection,
    tp: &TopicPartition,
    from: i64,
    limit: usize,
) -> Result<Vec<Record>> {
    let rows = sqlx::query(
        "SELECT record_offset, record_key, payload, headers, appended_at_ms FROM event_log_records \
         WHERE topic = $1 AND partition_id = $2 AND record_offset >= $3 ORDER BY record_offset LIMIT $4",
    )
    .bind(&tp.topic)
    .bind(tp.partition)
    .bind(from)
    .bind(i64::try_from(limit).unwrap_or(i64::MAX))
    .fetch_all(&mut *conn)
    .await?;
    rows.iter().map(|row| to_record(tp, row)).collect()
}

fn to_record(tp: &TopicPartition, row: &SqliteRow) -> Result<Record> {
    let offset: i64 = row.try_get(0)?;
    let corrupt =
        |reason| EventLogError::CorruptRecord { topic: tp.topic.clone(), partition: tp.partition, offset, reason };
    let headers: Vec<u8> = row.try_get(3)?;
    let millis: i64 = row.try_get(4)?;
    Ok(Record {
        topic: tp.topic.clone(),
        partition: tp.partition,
        offset,
        key: row.try_get(1)?,
        payload: row.try_get(2)?,
        headers: codec::decode(&headers).map_err(corrupt)?,
        timestamp: DateTime::from_timestamp_millis(millis).ok_or_else(|| corrupt("timestamp out of range"))?,
    })
}

/// The ends of several partitions, in one statement (a subquery each, so
/// each reads its partition's last index entry).
pub(super) async fn end_offsets(
    conn: &mut SqliteConnection,
    partitions: &[&TopicPartition],
) -> Result<BTreeMap<TopicPartition, i64>> {
    let mut out = BTreeMap::new();
    for chunk in partitions.chunks(400) {
        let mut query: QueryBuilder<Sqlite> = QueryBuilder::new("");
        for (i, tp) in chunk.iter().enumerate() {
            if i > 0 {
                query.push(" UNION ALL ");
            }
            query
                .push("SELECT ")
                .push_bind(i64::try_from(i).unwrap_or(i64::MAX))
                .push(", (SELECT COALESCE(MAX(record_offset) + 1, 0) FROM event_log_records WHERE topic = ")
                .push_bind(&tp.topic)
                .push(" AND partition_id = ")
                .push_bind(tp.partition)
                .push(")");
        }
        let rows: Vec<(i64, i64)> = query.build_query_as().fetch_all(&mut *conn).await?;
        for (i, end) in rows {
            if let Some(tp) = usize::try_from(i).ok().and_then(|i| chunk.get(i)) {
                out.insert((*tp).clone(), end);
            }
        }
    }
    Ok(out)
}

pub(super) async fn committed(pool: &SqlitePool, group: &str, tp: &TopicPartition) -> Result<Option<i64>> {
    let offset = sqlx::query_scalar(
        "SELECT committed_offset FROM event_log_group_offsets WHERE group_id = $1 AND topic = $2 AND partition_id = $3",
    )
    .bind(group)
    .bind(&tp.topic)
    .bind(tp.partition)
    .fetch_optional(pool)
    .await?;
    Ok(offset)
}

/// Stores the group's next offsets, in one transaction. Offsets only move
/// forward: a late commit from a member that lost its partition in a
/// rebalance cannot rewind what the new owner committed.
pub(super) async fn commit(pool: &SqlitePool, group: &str, next: &BTreeMap<TopicPartition, i64>) -> Result<()> {
    if next.is_empty() {
        return Ok(());
    }
    let now = Utc::now().timestamp_millis();
    let mut upsert: QueryBuilder<Sqlite> = QueryBuilder::new(
        "INSERT INTO event_log_group_offsets (group_id, topic, partition_id, committed_offset, committed_at_ms) ",
    );
    upsert.push_values(next, |mut row, (tp, offset)| {
        row.push_bind(group).push_bind(&tp.topic).push_bind(tp.partition).push_bind(offset).push_bind(now);
    });
    upsert.push(
        " ON CONFLICT (group_id, topic, partition_id) \
         DO UPDATE SET committed_offset = excluded.committed_offset, committed_at_ms = excluded.committed_at_ms \
         WHERE excluded.committed_offset > event_log_group_offsets.committed_offset",
    );
    upsert.build().execute(pool).await?;
    Ok(())
}
