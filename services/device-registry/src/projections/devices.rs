//! The registry's own events back into the gateways and meters tables:
//! the rebuild behind `wmeter replay`. While the service runs, its actions
//! write the tables in the transaction that stages the events, so this
//! projection does not consume live.

use async_trait::async_trait;
use wm_eventlog::{
    Record,
    envelopes::decode,
    projection::{ApplyError, Effects, Projection},
};
use wm_proto::topics;
use wm_storage::Db;

use crate::storage::devices;

#[derive(Clone, Debug)]
pub struct DevicesProjection {
    pub db: Db,
}

#[async_trait]
impl Projection for DevicesProjection {
    fn name(&self) -> &'static str {
        "device-registry.devices"
    }

    fn topics(&self) -> &'static [&'static str] {
        &[topics::REGISTRY]
    }

    fn live(&self) -> bool {
        false
    }

    async fn apply(&self, records: &[Record], _effects: Effects) -> Result<(), ApplyError> {
        let mut tx = self.db.begin_write().await?;
        for envelope in records.iter().filter_map(decode) {
            if let Some(event) = &envelope.payload {
                devices::persist(&mut tx, event).await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    async fn reset(&self) -> Result<(), ApplyError> {
        let mut tx = self.db.begin_write().await?;
        devices::reset(&mut tx).await?;
        tx.commit().await?;
        Ok(())
    }
}
