//! The gateways' MQTT credentials that work, from the registry's events:
//! what the embedded broker signs a gateway in with (docs/device-plane.md).

use wm_proto::Payload;
use wm_storage::{Db, StorageError, Tx, execute, with_pool};

/// Applies a credential event, or a gateway's deletion (its credentials go
/// with it). Other events are ignored.
pub async fn apply(tx: &mut Tx, event: &Payload) -> Result<(), StorageError> {
    match event {
        Payload::GatewayCredentialIssued(c) => {
            let expires_at =
                c.expires_at.as_ref().and_then(wm_proto::time::to_datetime).map(|at| at.timestamp_micros());
            let sql = "INSERT INTO ingest_gateway_credentials \
                       (id, gateway_id, serial_number, kind, secret_hash, fingerprint, expires_at) \
                       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING";
            let kind = if c.fingerprint.is_empty() { "secret" } else { "certificate" };
            execute!(
                tx,
                sql,
                &c.id,
                &c.gateway_id,
                &c.serial_number,
                kind,
                &c.secret_hash,
                &c.fingerprint,
                expires_at
            )?;
        }
        Payload::GatewayCredentialRevoked(c) => {
            execute!(tx, "DELETE FROM ingest_gateway_credentials WHERE id = $1", &c.id)?;
        }
        Payload::GatewayDeleted(g) => {
            execute!(tx, "DELETE FROM ingest_gateway_credentials WHERE gateway_id = $1", &g.id)?;
        }
        _ => {}
    }
    Ok(())
}

pub async fn reset(tx: &mut Tx) -> Result<(), StorageError> {
    execute!(tx, "DELETE FROM ingest_gateway_credentials")?;
    Ok(())
}

/// The hashes of the secrets of the gateway `serial` that work at
/// `now_micros` (during a rotation, briefly more than one).
pub async fn secret_hashes(db: &Db, serial: &str, now_micros: i64) -> Result<Vec<String>, StorageError> {
    let sql = "SELECT secret_hash FROM ingest_gateway_credentials \
               WHERE serial_number = $1 AND kind = 'secret' AND (expires_at IS NULL OR expires_at > $2)";
    Ok(with_pool!(db, pool => sqlx::query_scalar(sql).bind(serial).bind(now_micros).fetch_all(pool).await)?)
}

/// The serial number of the gateway whose certificate has `fingerprint`,
/// if it works at `now_micros`.
pub async fn certificate_owner(db: &Db, fingerprint: &str, now_micros: i64) -> Result<Option<String>, StorageError> {
    let sql = "SELECT serial_number FROM ingest_gateway_credentials \
               WHERE fingerprint = $1 AND kind = 'certificate' AND (expires_at IS NULL OR expires_at > $2)";
    Ok(with_pool!(db, pool => sqlx::query_scalar(sql).bind(fingerprint).bind(now_micros).fetch_optional(pool).await)?)
}
