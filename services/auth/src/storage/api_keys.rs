//! The api_keys table: each key's name, role, expiry and digest, and its
//! latest use. The key itself is never stored.

use chrono::{DateTime, Utc};
use wm_storage::{Db, StorageError, Tx, execute, execute_write, with_pool};

use crate::domain::api_key::ApiKey;

struct Row {
    id: String,
    name: String,
    prefix: String,
    role: String,
    created_at: i64,
    created_by: String,
    expires_at: i64,
    revoked_at: Option<i64>,
    last_used_at: Option<i64>,
    last_used_address: Option<String>,
    creator: Option<String>,
}
wm_storage::from_row!(Row {
    id,
    name,
    prefix,
    role,
    created_at,
    created_by,
    expires_at,
    revoked_at,
    last_used_at,
    last_used_address,
    creator
});

fn time(field: &'static str, micros: i64) -> Result<DateTime<Utc>, StorageError> {
    DateTime::from_timestamp_micros(micros).ok_or_else(|| StorageError::Corrupt { field, value: micros.to_string() })
}

impl Row {
    /// The key, and the username of the admin who made it (if they still
    /// exist).
    fn into_key(self) -> Result<(ApiKey, Option<String>), StorageError> {
        let key = ApiKey {
            role: self.role.parse().map_err(|_| StorageError::Corrupt { field: "role", value: self.role.clone() })?,
            created_at: time("created_at", self.created_at)?,
            expires_at: time("expires_at", self.expires_at)?,
            revoked_at: self.revoked_at.map(|t| time("revoked_at", t)).transpose()?,
            last_used_at: self.last_used_at.map(|t| time("last_used_at", t)).transpose()?,
            id: self.id,
            name: self.name,
            prefix: self.prefix,
            created_by: self.created_by,
            last_used_address: self.last_used_address,
        };
        Ok((key, self.creator))
    }
}

const SELECT: &str = "SELECT k.id, k.name, k.prefix, k.role, k.created_at, k.created_by, k.expires_at, \
                      k.revoked_at, k.last_used_at, k.last_used_address, u.username AS creator \
                      FROM api_keys k LEFT JOIN users u ON u.id = k.created_by";

/// Stores a new key with the digest it is checked by.
pub async fn insert(db: &Db, key: &ApiKey, digest: &str) -> Result<(), StorageError> {
    let sql = "INSERT INTO api_keys (id, name, prefix, key_digest, role, created_at, created_by, expires_at) \
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
    let (created_at, expires_at) = (key.created_at.timestamp_micros(), key.expires_at.timestamp_micros());
    execute_write!(
        db,
        sql,
        &key.id,
        &key.name,
        &key.prefix,
        digest,
        key.role.as_str(),
        created_at,
        &key.created_by,
        expires_at
    )
    .await?;
    Ok(())
}

/// Every key, newest first, with its creator's username.
pub async fn list(db: &Db) -> Result<Vec<(ApiKey, Option<String>)>, StorageError> {
    let sql = format!("{SELECT} ORDER BY k.created_at DESC, k.id DESC");
    let rows: Vec<Row> = with_pool!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(pool).await)?;
    rows.into_iter().map(Row::into_key).collect()
}

/// The key with this id, with its creator's username.
pub async fn find(db: &Db, id: &str) -> Result<Option<(ApiKey, Option<String>)>, StorageError> {
    let sql = format!("{SELECT} WHERE k.id = $1");
    let row: Option<Row> =
        with_pool!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(pool).await)?;
    row.map(Row::into_key).transpose()
}

/// Marks the key `id` revoked at `at`, unless it already is.
pub async fn revoke(db: &Db, id: &str, at: DateTime<Utc>) -> Result<(), StorageError> {
    let sql = "UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL";
    execute_write!(db, sql, at.timestamp_micros(), id).await?;
    Ok(())
}

/// Keeps a use of the key `id` if it is later than the one kept.
pub async fn used(tx: &mut Tx, id: &str, at: DateTime<Utc>, address: Option<&str>) -> Result<(), StorageError> {
    execute!(
        tx,
        "UPDATE api_keys SET last_used_at = $1, last_used_address = $2 \
         WHERE id = $3 AND (last_used_at IS NULL OR last_used_at < $1)",
        at.timestamp_micros(),
        address,
        id
    )?;
    Ok(())
}

/// Forgets every use, before a replay keeps them again.
pub async fn forget_uses(tx: &mut Tx) -> Result<(), StorageError> {
    execute!(tx, "UPDATE api_keys SET last_used_at = NULL, last_used_address = NULL")?;
    Ok(())
}
