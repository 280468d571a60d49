//! Each user's notifications.

use serde::Serialize;
use utoipa::ToSchema;
use wm_storage::{
    Db, StorageError, Tx, execute,
    query::{self, Bind},
    with_tx,
};

/// A notification (spec §3), as the API and the stream show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Notification {
    /// Orders a user's notifications; the stream's event id.
    pub seq: i64,
    pub id: String,
    #[serde(skip)]
    pub user_id: String,
    #[schema(example = "W-AB12CD34EF")]
    pub device_name: String,
    pub device_id: String,
    /// `meter` or `gateway`.
    pub device_kind: String,
    #[schema(example = "leak alert")]
    pub event: String,
    #[schema(example = "raised")]
    pub status: String,
    /// What happened, for the client to word in its language: `alert`,
    /// `shutdown-request`, `gateway-lost` or `gateway-back` (empty for a
    /// notification older than this field: then only `event` says it).
    #[schema(example = "alert")]
    pub kind: String,
    /// The kind's parameters, e.g. `{"type": "leak"}` for an alert.
    #[serde(serialize_with = "json_object")]
    #[schema(value_type = Object, example = json!({"type": "leak"}))]
    pub params: String,
    /// ISO 8601 UTC.
    #[serde(serialize_with = "iso")]
    #[schema(value_type = String, example = "2026-11-22T09:32:00.000000Z")]
    pub created_at: i64,
}
wm_storage::from_row!(Notification {
    seq,
    id,
    user_id,
    device_name,
    device_id,
    device_kind,
    event,
    status,
    kind,
    params,
    created_at
});

/// Stored JSON text, served as the object it holds (`{}` if it holds none).
fn json_object<S: serde::Serializer>(text: &str, s: S) -> Result<S::Ok, S::Error> {
    let value = serde_json::from_str::<serde_json::Value>(text).ok().filter(serde_json::Value::is_object);
    serde::Serialize::serialize(&value.unwrap_or_else(|| serde_json::json!({})), s)
}

fn iso<S: serde::Serializer>(micros: &i64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&wm_domain::iso_micros(*micros))
}

const COLUMNS: &str = "seq, id, user_id, device_name, device_id, device_kind, event, status, kind, params, created_at";

/// Stores `n`, with a new `seq` when `n.seq` is 0 (otherwise with its own,
/// as a rebuild does); returns the `seq`, or `None` when a notification
/// with its id exists already.
pub async fn insert(tx: &mut Tx, n: &Notification) -> Result<Option<i64>, StorageError> {
    let (columns, values) = if n.seq == 0 { ("", "") } else { ("seq, ", "$11, ") };
    let sql = format!(
        "INSERT INTO notifications ({columns}id, user_id, device_name, device_id, device_kind, event, status, created_at, \
         kind, params) VALUES ({values}$1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING RETURNING seq"
    );
    Ok(with_tx!(tx, conn => {
        let mut query = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .bind(&n.id)
            .bind(&n.user_id)
            .bind(&n.device_name)
            .bind(&n.device_id)
            .bind(&n.device_kind)
            .bind(&n.event)
            .bind(&n.status)
            .bind(n.created_at)
            .bind(&n.kind)
            .bind(&n.params);
        if n.seq != 0 {
            query = query.bind(n.seq);
        }
        query.fetch_optional(&mut **conn).await
    })?)
}

/// After explicit `seq`s were inserted: new ones continue after them
/// (PostgreSQL's sequence does not follow explicit values; SQLite's does).
pub async fn continue_seq(tx: &mut Tx) -> Result<(), StorageError> {
    if let Tx::Postgres(conn) = tx {
        let sql = "SELECT setval(pg_get_serial_sequence('notifications', 'seq'), \
                   GREATEST((SELECT MAX(seq) FROM notifications), 1))";
        sqlx::query(sql).execute(&mut **conn).await?;
    }
    Ok(())
}

/// A user's notifications, newest first, at most `max`.
pub async fn newest(db: &Db, user_id: &str, max: i64) -> Result<Vec<Notification>, StorageError> {
    let sql = format!("SELECT {COLUMNS} FROM notifications WHERE user_id = $1 ORDER BY seq DESC LIMIT $2");
    query::fetch_all(db, sql, vec![Bind::Text(user_id.to_owned()), Bind::Int(max)]).await
}

/// The highest `seq` of a user's notifications (0 when none).
pub async fn last_seq(db: &Db, user_id: &str) -> Result<i64, StorageError> {
    let sql = "SELECT COALESCE(MAX(seq), 0) FROM notifications WHERE user_id = $1".to_owned();
    query::fetch_count(db, sql, vec![Bind::Text(user_id.to_owned())]).await
}

/// A user's notifications after `seq`, oldest first: what a reconnecting
/// stream missed.
pub async fn after(db: &Db, user_id: &str, seq: i64, max: i64) -> Result<Vec<Notification>, StorageError> {
    let sql = format!("SELECT {COLUMNS} FROM notifications WHERE user_id = $1 AND seq > $2 ORDER BY seq LIMIT $3");
    query::fetch_all(db, sql, vec![Bind::Text(user_id.to_owned()), Bind::Int(seq), Bind::Int(max)]).await
}

/// Deletes a user's notifications about `device_name` created up to `at`.
pub async fn dismiss(tx: &mut Tx, user_id: &str, device_name: &str, at: i64) -> Result<u64, StorageError> {
    let sql = "DELETE FROM notifications WHERE user_id = $1 AND device_name = $2 AND created_at <= $3";
    execute!(tx, sql, user_id, device_name, at)
}

/// Deletes all of a user's notifications created up to `at`.
pub async fn clear(tx: &mut Tx, user_id: &str, at: i64) -> Result<u64, StorageError> {
    execute!(tx, "DELETE FROM notifications WHERE user_id = $1 AND created_at <= $2", user_id, at)
}

/// Empties the table, before a rebuild.
pub async fn reset(tx: &mut Tx) -> Result<(), StorageError> {
    execute!(tx, "DELETE FROM notifications")?;
    Ok(())
}
