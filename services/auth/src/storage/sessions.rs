//! Refresh-token families (DESIGN §7).
//!
//! A login starts a family. Every refresh rotates the token: the presented
//! one is marked rotated and a successor is issued. Presenting a rotated
//! token again means it was stolen (or replayed), so the whole family is
//! revoked, except within a short grace window, where a second browser tab
//! that refreshed with the same token at the same moment also gets a
//! successor, as long as the family has not moved on since. Tokens are
//! random and stored only as SHA-256 hashes.

use std::time::Duration;

use base64::Engine;
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use wm_domain::DeviceId;
use wm_storage::{Db, StorageError, execute, execute_write, with_pool, with_tx};

/// How long refresh tokens live and how reuse is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionPolicy {
    pub lifetime: Duration,
    pub reuse_grace: Duration,
}

impl Default for SessionPolicy {
    fn default() -> Self {
        Self { lifetime: Duration::from_secs(14 * 24 * 3600), reuse_grace: Duration::from_secs(10) }
    }
}

/// A refresh token to hand to the client (in the cookie), never stored.
#[derive(Clone, PartialEq, Eq)]
pub struct IssuedToken {
    pub token: String,
    pub family_id: String,
    pub user_id: String,
    pub expires_at: DateTime<Utc>,
}

impl std::fmt::Debug for IssuedToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IssuedToken")
            .field("family_id", &self.family_id)
            .field("user_id", &self.user_id)
            .field("expires_at", &self.expires_at)
            .finish_non_exhaustive()
    }
}

/// Why a refresh was refused. Every case is a 401 for the client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    Unknown,
    Expired,
    Revoked,
    /// A rotated token came back after the grace window: the family is now
    /// revoked, the successor included.
    Reused(Family),
}

/// One login's chain of refresh tokens, and whose it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Family {
    pub family_id: String,
    pub user_id: String,
}

struct Row {
    family_id: String,
    user_id: String,
    expires_at: i64,
    rotated_at: Option<i64>,
    revoked_at: Option<i64>,
}
wm_storage::from_row!(Row { family_id, user_id, expires_at, rotated_at, revoked_at });

/// Starts a family for `user_id` (a login) and returns its first token.
pub async fn start(
    db: &Db,
    user_id: &str,
    policy: SessionPolicy,
    now: DateTime<Utc>,
) -> Result<IssuedToken, StorageError> {
    issue(db, &DeviceId::new().to_string(), user_id, policy, now).await
}

/// Rotates `token`: its successor, or why there is none.
pub async fn rotate(
    db: &Db,
    token: &str,
    policy: SessionPolicy,
    now: DateTime<Utc>,
) -> Result<Result<IssuedToken, Rejection>, StorageError> {
    let hash = digest(token);
    let sql = "SELECT family_id, user_id, expires_at, rotated_at, revoked_at FROM refresh_tokens WHERE token_hash = $1";
    let row: Option<Row> = with_pool!(db, pool => sqlx::query_as(sql).bind(&hash).fetch_optional(pool).await)?;
    let Some(row) = row else { return Ok(Err(Rejection::Unknown)) };
    let now_us = now.timestamp_micros();
    if row.revoked_at.is_some() {
        return Ok(Err(Rejection::Revoked));
    }
    if row.expires_at <= now_us {
        return Ok(Err(Rejection::Expired));
    }
    let rotated_at = match row.rotated_at {
        Some(at) => at,
        None => mark_rotated(db, &hash, now_us).await?,
    };
    let reused = now_us - rotated_at > micros(policy.reuse_grace) || moved_on(db, &row.family_id, rotated_at).await?;
    if reused {
        revoke_family(db, &row.family_id, now).await?;
        tracing::warn!(family = row.family_id, user = row.user_id, "refresh token reused: family revoked");
        return Ok(Err(Rejection::Reused(Family { family_id: row.family_id, user_id: row.user_id })));
    }
    issue(db, &row.family_id, &row.user_id, policy, now).await.map(Ok)
}

/// Revokes the family `token` belongs to (logout) and returns it; `None`
/// when the token is unknown.
pub async fn end(db: &Db, token: &str, now: DateTime<Utc>) -> Result<Option<Family>, StorageError> {
    let sql = "SELECT family_id, user_id FROM refresh_tokens WHERE token_hash = $1";
    let family: Option<(String, String)> =
        with_pool!(db, pool => sqlx::query_as(sql).bind(digest(token)).fetch_optional(pool).await)?;
    let Some((family_id, user_id)) = family else { return Ok(None) };
    revoke_family(db, &family_id, now).await?;
    Ok(Some(Family { family_id, user_id }))
}

/// Revokes every session of a user (the user was disabled). Returns how
/// many live tokens were revoked.
pub async fn end_all(db: &Db, user_id: &str, now: DateTime<Utc>) -> Result<u64, StorageError> {
    let sql = "UPDATE refresh_tokens SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL";
    execute_write!(db, sql, now.timestamp_micros(), user_id).await
}

async fn issue(
    db: &Db,
    family_id: &str,
    user_id: &str,
    policy: SessionPolicy,
    now: DateTime<Utc>,
) -> Result<IssuedToken, StorageError> {
    let bytes: [u8; 32] = rand::random();
    let token = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    let expires_at = now + policy.lifetime;
    let sql = "INSERT INTO refresh_tokens (token_hash, family_id, user_id, issued_at, expires_at) \
               VALUES ($1, $2, $3, $4, $5)";
    execute_write!(db, sql, digest(&token), family_id, user_id, now.timestamp_micros(), expires_at.timestamp_micros())
        .await?;
    Ok(IssuedToken { token, family_id: family_id.to_owned(), user_id: user_id.to_owned(), expires_at })
}

/// Marks the token rotated unless a concurrent refresh did first; returns
/// when it was rotated either way.
async fn mark_rotated(db: &Db, hash: &str, now_us: i64) -> Result<i64, StorageError> {
    let mut tx = db.begin_write().await?;
    let sql = "UPDATE refresh_tokens SET rotated_at = $1 WHERE token_hash = $2 AND rotated_at IS NULL";
    execute!(&mut tx, sql, now_us, hash)?;
    let sql = "SELECT rotated_at FROM refresh_tokens WHERE token_hash = $1";
    let at: Option<i64> = with_tx!(&mut tx, conn => sqlx::query_scalar(sql).bind(hash).fetch_one(&mut **conn).await)?;
    tx.commit().await?;
    Ok(at.unwrap_or(now_us))
}

/// True when a later token of the family was itself rotated after
/// `rotated_at`: the family has moved on, so even within the grace window
/// the old token is a replay, not a second tab.
async fn moved_on(db: &Db, family_id: &str, rotated_at: i64) -> Result<bool, StorageError> {
    let sql = "SELECT COUNT(*) FROM refresh_tokens WHERE family_id = $1 AND rotated_at > $2";
    let later: i64 =
        with_pool!(db, pool => sqlx::query_scalar(sql).bind(family_id).bind(rotated_at).fetch_one(pool).await)?;
    Ok(later > 0)
}

async fn revoke_family(db: &Db, family_id: &str, now: DateTime<Utc>) -> Result<(), StorageError> {
    let sql = "UPDATE refresh_tokens SET revoked_at = $1 WHERE family_id = $2 AND revoked_at IS NULL";
    execute_write!(db, sql, now.timestamp_micros(), family_id).await?;
    Ok(())
}

fn digest(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

fn micros(d: Duration) -> i64 {
    i64::try_from(d.as_micros()).unwrap_or(i64::MAX)
}
