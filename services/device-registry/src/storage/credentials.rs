//! The gateway_credentials table: each gateway's MQTT credentials, written
//! from their events (by the action that stages them, and by a rebuild).

use wm_proto::{
    Payload,
    v1::{CredentialKind, GatewayCredentialIssued, GatewayCredentialRevoked, GatewayDeleted},
};
use wm_storage::{Db, StorageError, Tx, execute, with_pool, with_tx};

use super::{from_micros, micros};
use crate::domain::credential::{Credential, Kind};

struct Row {
    id: String,
    gateway_id: String,
    serial_number: String,
    kind: String,
    fingerprint: String,
    created_at: i64,
    expires_at: Option<i64>,
    revoked_at: Option<i64>,
}
wm_storage::from_row!(Row { id, gateway_id, serial_number, kind, fingerprint, created_at, expires_at, revoked_at });

impl Row {
    fn into_credential(self) -> Result<Credential, StorageError> {
        let kind = Kind::parse(&self.kind).ok_or(StorageError::Corrupt { field: "kind", value: self.kind.clone() })?;
        Ok(Credential {
            created_at: from_micros("created_at", self.created_at)?,
            expires_at: self.expires_at.map(|t| from_micros("expires_at", t)).transpose()?,
            revoked_at: self.revoked_at.map(|t| from_micros("revoked_at", t)).transpose()?,
            id: self.id,
            gateway_id: self.gateway_id,
            serial_number: self.serial_number,
            kind,
            fingerprint: self.fingerprint,
        })
    }
}

const SELECT: &str = "SELECT id, gateway_id, serial_number, kind, fingerprint, created_at, expires_at, revoked_at \
                      FROM gateway_credentials";

/// The gateway's credentials, newest first.
pub async fn of_gateway(db: &Db, gateway_id: &str) -> Result<Vec<Credential>, StorageError> {
    let sql = format!("{SELECT} WHERE gateway_id = $1 ORDER BY created_at DESC, id DESC");
    let rows: Vec<Row> = with_pool!(db, pool =>
        sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(gateway_id).fetch_all(pool).await)?;
    rows.into_iter().map(Row::into_credential).collect()
}

/// The same, in a transaction.
pub async fn of_gateway_in(tx: &mut Tx, gateway_id: &str) -> Result<Vec<Credential>, StorageError> {
    let sql = format!("{SELECT} WHERE gateway_id = $1 ORDER BY created_at DESC, id DESC");
    let rows: Vec<Row> = with_tx!(tx, conn =>
        sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(gateway_id).fetch_all(&mut **conn).await)?;
    rows.into_iter().map(Row::into_credential).collect()
}

/// Every secret that works at `now_micros`, as `(serial number, hash)`,
/// by serial number: what a Mosquitto password file lists.
pub async fn active_secrets(db: &Db, now_micros: i64) -> Result<Vec<(String, String)>, StorageError> {
    let sql = "SELECT serial_number, secret_hash FROM gateway_credentials \
               WHERE kind = 'secret' AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $1) \
               ORDER BY serial_number, created_at";
    Ok(with_pool!(db, pool => sqlx::query_as(sql).bind(now_micros).fetch_all(pool).await)?)
}

/// Every certificate that works at `now_micros`, as `(credential id,
/// serial number)`: what Mosquitto's certificate ACL lists.
pub async fn active_certificates(db: &Db, now_micros: i64) -> Result<Vec<(String, String)>, StorageError> {
    let sql = "SELECT id, serial_number FROM gateway_credentials \
               WHERE kind = 'certificate' AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $1) \
               ORDER BY serial_number, id";
    Ok(with_pool!(db, pool => sqlx::query_as(sql).bind(now_micros).fetch_all(pool).await)?)
}

/// Every revoked certificate that has not expired at `now_micros`, as
/// `(credential id, when it was revoked)`, by id: what a revocation list
/// names.
pub async fn revoked_certificates(
    db: &Db,
    now_micros: i64,
) -> Result<Vec<(String, chrono::DateTime<chrono::Utc>)>, StorageError> {
    let sql = "SELECT id, revoked_at FROM gateway_credentials \
               WHERE kind = 'certificate' AND revoked_at IS NOT NULL AND (expires_at IS NULL OR expires_at > $1) \
               ORDER BY id";
    let rows: Vec<(String, i64)> = with_pool!(db, pool => sqlx::query_as(sql).bind(now_micros).fetch_all(pool).await)?;
    rows.into_iter().map(|(id, at)| Ok((id, from_micros("revoked_at", at)?))).collect()
}

/// Applies a credential event, or a gateway's deletion (which takes its
/// credentials with it). Other events are ignored.
pub async fn persist(tx: &mut Tx, event: &Payload) -> Result<(), StorageError> {
    match event {
        Payload::GatewayCredentialIssued(e) => insert(tx, e).await,
        Payload::GatewayCredentialRevoked(GatewayCredentialRevoked { id, revoked_at, .. }) => {
            let at = revoked_at.as_ref().and_then(wm_proto::time::to_datetime).map_or(0, micros);
            let sql = "UPDATE gateway_credentials SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL";
            execute!(tx, sql, at, id.as_str())?;
            Ok(())
        }
        Payload::GatewayDeleted(GatewayDeleted { id }) => {
            execute!(tx, "DELETE FROM gateway_credentials WHERE gateway_id = $1", id.as_str())?;
            Ok(())
        }
        _ => Ok(()),
    }
}

async fn insert(tx: &mut Tx, e: &GatewayCredentialIssued) -> Result<(), StorageError> {
    let kind = match e.kind() {
        CredentialKind::Certificate => Kind::Certificate,
        CredentialKind::Secret | CredentialKind::Unspecified => Kind::Secret,
    };
    let time =
        |t: &Option<wm_proto::prost_types::Timestamp>| t.as_ref().and_then(wm_proto::time::to_datetime).map(micros);
    let sql = "INSERT INTO gateway_credentials \
               (id, gateway_id, serial_number, kind, secret_hash, fingerprint, created_at, expires_at) \
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING";
    let created_at = time(&e.issued_at).unwrap_or(0);
    execute!(
        tx,
        sql,
        e.id.as_str(),
        e.gateway_id.as_str(),
        e.serial_number.as_str(),
        kind.as_str(),
        e.secret_hash.as_str(),
        e.fingerprint.as_str(),
        created_at,
        time(&e.expires_at)
    )?;
    Ok(())
}
