//! The auth service's projections: every service's `AuditRecorded` events
//! into `audit_log`, which `GET /api/audit` reads, and every process's
//! `ApiKeyUsed` reports into the keys' last-used times.

use async_trait::async_trait;
use wm_eventlog::{
    Record,
    envelopes::decode,
    projection::{ApplyError, Effects, Projection},
};
use wm_proto::{Envelope, topics};
use wm_storage::Db;

use wm_proto::{Payload, time::to_datetime};

use crate::storage::{api_keys, audit};

#[derive(Clone, Debug)]
pub struct AuditProjection {
    pub db: Db,
}

#[async_trait]
impl Projection for AuditProjection {
    fn name(&self) -> &'static str {
        "auth.audit"
    }

    fn topics(&self) -> &'static [&'static str] {
        &[topics::AUDIT]
    }

    async fn apply(&self, records: &[Record], _effects: Effects) -> Result<(), ApplyError> {
        let envelopes: Vec<Envelope> = records.iter().filter_map(decode).collect();
        let mut tx = self.db.begin_write().await?;
        audit::keep_all(&mut tx, &envelopes).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn reset(&self) -> Result<(), ApplyError> {
        let mut tx = self.db.begin_write().await?;
        audit::reset(&mut tx).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// The API keys' latest uses, as each process reports them.
#[derive(Clone, Debug)]
pub struct KeyUsesProjection {
    pub db: Db,
}

#[async_trait]
impl Projection for KeyUsesProjection {
    fn name(&self) -> &'static str {
        "auth.key-uses"
    }

    fn topics(&self) -> &'static [&'static str] {
        &[topics::AUTH]
    }

    async fn apply(&self, records: &[Record], _effects: Effects) -> Result<(), ApplyError> {
        let uses: Vec<_> = records
            .iter()
            .filter_map(decode)
            .filter_map(|envelope| match envelope.payload {
                Some(Payload::ApiKeyUsed(used)) => Some(used),
                _ => None,
            })
            .collect();
        if uses.is_empty() {
            return Ok(());
        }
        let mut tx = self.db.begin_write().await?;
        for used in uses {
            let Some(at) = used.used_at.as_ref().and_then(to_datetime) else { continue };
            let address = Some(used.source_ip.as_str()).filter(|ip| !ip.is_empty());
            api_keys::used(&mut tx, &used.key_id, at, address).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn reset(&self) -> Result<(), ApplyError> {
        let mut tx = self.db.begin_write().await?;
        api_keys::forget_uses(&mut tx).await?;
        tx.commit().await?;
        Ok(())
    }
}
