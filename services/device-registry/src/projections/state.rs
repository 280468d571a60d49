//! Device state from what gateways report: last seen, online session,
//! consumption, counters, critical and down. Each batch is applied once,
//! in one transaction with its checkpoint.

use async_trait::async_trait;
use wm_eventlog::{
    Record, checkpoint,
    envelopes::decode,
    projection::{ApplyError, Effects, Projection},
};
use wm_proto::{
    Envelope, Payload, topics,
    v1::{ShutdownAnswerStatus, VolumeUnit},
};
use wm_storage::{Db, Tx};

use crate::storage::{StorageError, micros, state};

const NAME: &str = "device-registry.state";

#[derive(Clone, Debug)]
pub struct StateProjection {
    pub db: Db,
}

#[async_trait]
impl Projection for StateProjection {
    fn name(&self) -> &'static str {
        NAME
    }

    fn topics(&self) -> &'static [&'static str] {
        &[
            topics::GATEWAY_STATUS,
            topics::GATEWAY_ACTIVITY,
            topics::READINGS,
            topics::ALERTS,
            topics::DISCOVERIES,
            topics::SHUTDOWN,
            topics::COMMANDS,
        ]
    }

    async fn apply(&self, records: &[Record], _effects: Effects) -> Result<(), ApplyError> {
        let mut tx = self.db.begin_write().await?;
        for record in checkpoint::unapplied(&mut tx, NAME, records).await? {
            if let Some(envelope) = decode(record) {
                apply_one(&mut tx, &envelope).await?;
            }
        }
        checkpoint::advance(&mut tx, NAME, records).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn reset(&self) -> Result<(), ApplyError> {
        let mut tx = self.db.begin_write().await?;
        state::reset(&mut tx).await?;
        checkpoint::clear(&mut tx, NAME).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// Applies one event to the state tables (no checkpoint): the projection,
/// and `wmeter seed`, which writes the tables without the log.
pub async fn apply_one(tx: &mut Tx, envelope: &Envelope) -> Result<(), StorageError> {
    let Some(payload) = &envelope.payload else { return Ok(()) };
    match payload {
        Payload::GatewayActivity(e) => state::seen(tx, &e.gateway_id, e.meter_id.as_deref(), seen_at(envelope)).await,
        Payload::GatewayStatusChanged(e) => state::session(tx, &e.gateway_id, e.online).await,
        Payload::ReadingReceived(e) => match millilitres(e.record, e.unit()) {
            Some(ml) => state::reading(tx, &e.meter_id, &e.gateway_id, ml).await,
            None => {
                tracing::warn!(event_id = envelope.event_id, "skipping a reading without a unit");
                Ok(())
            }
        },
        Payload::AlertRaised(e) => state::alert_raised(tx, &e.meter_id, &e.alert_type).await,
        Payload::AlertCleared(e) => state::alert_cleared(tx, &e.meter_id, &e.alert_type).await,
        Payload::PeripheralDiscovered(e) => state::discovered(tx, &e.gateway_id, &e.ble_address).await,
        Payload::ShutdownAnswered(e) if e.status() == ShutdownAnswerStatus::Confirmed => {
            state::switched_off(tx, &e.meter_id).await
        }
        Payload::ValveCommandIssued(c) => state::command_issued(tx, &c.meter_id, &c.command_id).await,
        Payload::ValveCommandSent(c) => state::command_status(tx, &c.command_id, "sent").await,
        Payload::CommandAcknowledged(a) => {
            state::command_status(tx, &a.command_id, if a.ok { "acked" } else { "failed" }).await
        }
        _ => Ok(()),
    }
}

/// When w-meter heard it: the gateway's time, unless that is later than
/// when the event was recorded (a gateway clock running ahead must not
/// keep a device "seen" in the future).
fn seen_at(envelope: &Envelope) -> i64 {
    let recorded = envelope.recorded_at_utc();
    let at = match (envelope.occurred_at_utc(), recorded) {
        (Some(occurred), Some(recorded)) => occurred.min(recorded),
        (occurred, recorded) => occurred.or(recorded).unwrap_or_default(),
    };
    micros(at)
}

/// A reading's volume in millilitres; `None` without a unit.
fn millilitres(record: u64, unit: VolumeUnit) -> Option<i64> {
    let per_unit = match unit {
        VolumeUnit::Litre => 1000,
        VolumeUnit::Millilitre => 1,
        VolumeUnit::Unspecified => return None,
    };
    Some(i64::try_from(record).unwrap_or(i64::MAX).saturating_mul(per_unit))
}
