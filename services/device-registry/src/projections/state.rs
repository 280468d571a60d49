//! Device state from what gateways report: last seen, online session,
//! consumption, counters, critical and down. Each batch is applied once,
//! in one transaction with its checkpoint.

use std::{collections::HashMap, sync::Arc};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use wm_domain::{Clock, ValveStatus};
use wm_eventlog::{
    Record, checkpoint,
    envelopes::decode,
    projection::{ApplyError, Effects, Linger, Projection},
};
use wm_proto::{
    Envelope, Payload, topics,
    v1::{ShutdownAnswerStatus, VolumeUnit},
};
use wm_storage::{Db, StorageError, Tx};

use crate::storage::{micros, state};

const NAME: &str = "device-registry.state";

#[derive(Clone, Debug)]
pub struct StateProjection {
    pub db: Db,
    /// When a reading's claim was made ([`crate::claims`] forgets old ones).
    pub clock: Arc<dyn Clock>,
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

    fn linger(&self) -> Linger {
        Linger::TELEMETRY
    }

    async fn apply(&self, records: &[Record], effects: Effects) -> Result<(), ApplyError> {
        let mut tx = self.db.begin_write().await?;
        let envelopes: Vec<Envelope> =
            checkpoint::unapplied(&mut tx, NAME, records, effects).await?.into_iter().filter_map(decode).collect();
        let now = self.clock.now();
        apply_all(&mut tx, &envelopes, Readings::Claimed(now)).await?;
        checkpoint::advance(&mut tx, NAME, records).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn reset(&self) -> Result<(), ApplyError> {
        let mut tx = self.db.begin_write().await?;
        state::reset(&mut tx).await?;
        checkpoint::begin_rebuild(&mut tx, NAME).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn rebuilt(&self) -> Result<(), ApplyError> {
        Ok(checkpoint::end_rebuild(&self.db, NAME).await?)
    }
}

/// How [`apply_all`] knows a reading is new.
#[derive(Clone, Copy, Debug)]
pub enum Readings {
    /// By claiming its event id, dated now: the log may deliver it again.
    Claimed(DateTime<Utc>),
    /// Every one is (`wmeter seed`: made once, never on the log), and no
    /// claim is written.
    AllNew,
}

/// Applies events to the state tables (no checkpoint), in order: the
/// projection, and `wmeter seed`, which writes the tables without the log.
/// The seen times and the readings, nearly every event, are gathered and
/// written once per device at the end; the columns they write are not
/// touched by the other events, so the order between the two kinds does
/// not matter. A reading is added once per event id, however many times
/// the log holds it.
pub async fn apply_all(tx: &mut Tx, envelopes: &[Envelope], new: Readings) -> Result<(), StorageError> {
    let mut heard = state::Heard::default();
    let reading_ids: Vec<&str> = envelopes
        .iter()
        .filter(|e| matches!(e.payload, Some(Payload::ReadingReceived(_))))
        .map(|e| e.event_id.as_str())
        .collect();
    let mut fresh = match new {
        Readings::Claimed(now) => state::claim_readings(tx, &reading_ids, micros(now)).await?,
        Readings::AllNew => reading_ids.iter().map(|id| (*id).to_owned()).collect(),
    };
    for envelope in envelopes {
        let Some(payload) = &envelope.payload else { continue };
        match payload {
            Payload::GatewayActivity(e) => {
                let at = seen_at(envelope);
                latest(&mut heard.gateways, &e.gateway_id, at);
                if let Some(meter_id) = &e.meter_id {
                    latest(&mut heard.meters, meter_id, at);
                }
            }
            Payload::ReadingReceived(_) if !fresh.remove(&envelope.event_id) => {
                tracing::debug!(event_id = envelope.event_id, "a reading already added, skipped");
            }
            Payload::ReadingReceived(e) => match millilitres(e.record, e.unit()) {
                Some(ml) => {
                    heard.readings.push(state::Reading { meter_id: &e.meter_id, gateway_id: &e.gateway_id, ml })
                }
                None => tracing::warn!(event_id = envelope.event_id, "skipping a reading without a unit"),
            },
            _ => apply_other(tx, payload).await?,
        }
    }
    state::heard(tx, &heard).await
}

fn latest(devices: &mut HashMap<String, i64>, id: &str, at: i64) {
    let latest = devices.entry(id.to_owned()).or_insert(at);
    *latest = (*latest).max(at);
}

async fn apply_other(tx: &mut Tx, payload: &Payload) -> Result<(), StorageError> {
    match payload {
        Payload::GatewayStatusChanged(e) => state::session(tx, &e.gateway_id, e.online).await,
        Payload::AlertRaised(e) => state::alert_raised(tx, &e.meter_id, &e.alert_type).await,
        Payload::AlertCleared(e) => state::alert_cleared(tx, &e.meter_id, &e.alert_type).await,
        Payload::PeripheralDiscovered(e) => state::discovered(tx, &e.gateway_id, &e.ble_address).await,
        Payload::ShutdownAnswered(e) if e.status() == ShutdownAnswerStatus::Confirmed => {
            state::switched_off(tx, &e.meter_id).await
        }
        Payload::ValveCommandIssued(c) => state::command_issued(tx, &c.meter_id, &c.command_id).await,
        Payload::ValveCommandSent(c) => state::command_status(tx, &c.command_id, ValveStatus::Sent).await,
        Payload::ValveCommandTimedOut(c) => state::command_status(tx, &c.command_id, ValveStatus::TimedOut).await,
        Payload::CommandAcknowledged(a) => {
            state::command_status(tx, &a.command_id, ValveStatus::acknowledged(a.ok)).await
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
