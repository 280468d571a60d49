//! The audit trail's projection: every service's `AuditRecorded` events
//! into `audit_log`, which `GET /api/audit` reads.

use async_trait::async_trait;
use wm_eventlog::{
    Record,
    envelopes::decode,
    projection::{ApplyError, Effects, Projection},
};
use wm_proto::{Envelope, topics};
use wm_storage::Db;

use crate::storage::audit;

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
