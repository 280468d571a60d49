//! Ingest's projections: the registered devices it resolves uplinks
//! against (live), and its own events back into the read tables (rebuild
//! only: ingest writes them when it accepts an uplink).

use async_trait::async_trait;
use wm_eventlog::{
    Record,
    envelopes::decode,
    projection::{ApplyError, Effects, Projection},
};
use wm_proto::topics;
use wm_storage::Db;

use crate::storage::{directory, telemetry};

/// Gateways and meters by serial and BLE address, from the registry, and
/// the users alarms are assigned to, from auth.
#[derive(Clone, Debug)]
pub struct DirectoryProjection {
    pub db: Db,
}

#[async_trait]
impl Projection for DirectoryProjection {
    fn name(&self) -> &'static str {
        "telemetry-ingest.directory"
    }

    fn topics(&self) -> &'static [&'static str] {
        &[topics::REGISTRY, topics::AUTH]
    }

    async fn apply(&self, records: &[Record], _effects: Effects) -> Result<(), ApplyError> {
        let mut tx = self.db.begin_write().await?;
        for envelope in records.iter().filter_map(decode) {
            if let Some(event) = &envelope.payload {
                directory::apply(&mut tx, event).await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    async fn reset(&self) -> Result<(), ApplyError> {
        let mut tx = self.db.begin_write().await?;
        directory::reset(&mut tx).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// Ingest's own events back into its read tables.
#[derive(Clone, Debug)]
pub struct TelemetryProjection {
    pub db: Db,
}

#[async_trait]
impl Projection for TelemetryProjection {
    fn name(&self) -> &'static str {
        "telemetry-ingest.telemetry"
    }

    fn topics(&self) -> &'static [&'static str] {
        &[
            topics::GATEWAY_ACTIVITY,
            topics::BLE_ACTIVITY,
            topics::READINGS,
            topics::ALERTS,
            topics::DISCOVERIES,
            topics::SHUTDOWN,
            topics::COMMANDS,
            topics::GATEWAY_STATUS,
            topics::ALARMS,
        ]
    }

    fn live(&self) -> bool {
        false
    }

    async fn apply(&self, records: &[Record], _effects: Effects) -> Result<(), ApplyError> {
        let mut tx = self.db.begin_write().await?;
        let envelopes: Vec<_> = records.iter().filter_map(decode).collect();
        telemetry::persist_all(&mut tx, &envelopes).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn reset(&self) -> Result<(), ApplyError> {
        let mut tx = self.db.begin_write().await?;
        telemetry::reset(&mut tx).await?;
        tx.commit().await?;
        Ok(())
    }
}
