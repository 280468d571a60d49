//! Ingest's projections: the registered devices it resolves uplinks
//! against (live), its own events back into the read tables (rebuild
//! only: ingest writes them when it accepts an uplink), and the
//! consumption rollups (live, from the readings topic).

use async_trait::async_trait;
use wm_eventlog::{
    Record,
    envelopes::decode,
    outbox::Relay,
    projection::{ApplyError, Effects, Linger, Projection},
};
use wm_proto::topics;
use wm_storage::Db;

use chrono_tz::Tz;
use wm_domain::Clock;
use wm_proto::{Envelope, Payload};

use crate::{
    detectors::Detectors,
    domain::rollup::{self, Reading},
    identities::{Revocations, gateway_identity},
    storage::{directory, rollups, telemetry},
};

/// Gateways and meters by serial and BLE address, from the registry, and
/// the users alarms are assigned to, from auth.
#[derive(Clone, Debug)]
pub struct DirectoryProjection {
    pub db: Db,
    /// Told of each gateway whose credential was revoked.
    pub revocations: Revocations,
}

#[async_trait]
impl Projection for DirectoryProjection {
    fn name(&self) -> &'static str {
        "telemetry-ingest.directory"
    }

    fn topics(&self) -> &'static [&'static str] {
        &[topics::REGISTRY, topics::AUTH]
    }

    async fn apply(&self, records: &[Record], effects: Effects) -> Result<(), ApplyError> {
        let mut tx = self.db.begin_write().await?;
        let mut revoked = Vec::new();
        for envelope in records.iter().filter_map(decode) {
            if let Some(event) = &envelope.payload {
                // A deleted gateway's credentials go with it: its
                // connections close as a revoked one's do.
                match event {
                    Payload::GatewayCredentialRevoked(c) => revoked.push(gateway_identity(&c.serial_number)),
                    Payload::GatewayDeleted(g) => {
                        revoked.extend(directory::serial_of(&mut tx, &g.id).await?.as_deref().map(gateway_identity));
                    }
                    _ => {}
                }
                directory::apply(&mut tx, event).await?;
            }
        }
        tx.commit().await?;
        // A rebuild replays history: it closes no connection.
        if effects == Effects::Live {
            for identity in revoked {
                self.revocations.revoked(identity);
            }
        }
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

/// How long a batch of readings waits for more before the rollups take it,
/// and how many it may gather.
const LINGER: Linger = Linger { wait: std::time::Duration::from_secs(1), up_to: 4000 };

/// Consumption per meter per hour and per day, per gateway and over the
/// network per day, and per meter for ever (`domain::rollup`), from the
/// readings topic. A reading is counted once: its event id is claimed in
/// the batch's transaction (the retention task forgets old claims).
/// Live, the leak detectors then decide the hours the batch closed, and
/// their alarms are staged in the same transaction.
#[derive(Debug)]
pub struct RollupProjection {
    pub db: Db,
    pub tz: Tz,
    pub clock: std::sync::Arc<dyn Clock>,
    /// The leak detectors and the relay that publishes their alarms, unless
    /// they are off.
    pub detectors: Option<(Detectors, Relay)>,
}

impl RollupProjection {
    pub fn new(db: Db, tz: Tz, clock: std::sync::Arc<dyn Clock>, detectors: Option<(Detectors, Relay)>) -> Self {
        Self { db, tz, clock, detectors }
    }
}

/// The readings among `envelopes`, with the time the meter measured them.
pub(crate) fn readings_of(envelopes: &[Envelope]) -> Vec<Reading> {
    envelopes
        .iter()
        .filter_map(|envelope| {
            let at_us = envelope.occurred_at_utc()?.timestamp_micros();
            let Some(Payload::ReadingReceived(r)) = &envelope.payload else { return None };
            Some(Reading {
                event_id: envelope.event_id.clone(),
                meter_id: r.meter_id.clone(),
                gateway_id: r.gateway_id.clone(),
                ml: r.millilitres(),
                at_us,
            })
        })
        .collect()
}

#[async_trait]
impl Projection for RollupProjection {
    fn name(&self) -> &'static str {
        "telemetry-ingest.rollups"
    }

    fn topics(&self) -> &'static [&'static str] {
        &[topics::READINGS]
    }

    /// Charts and detectors need no sub-second freshness: a second of
    /// readings make one transaction, not dozens that take turns at the
    /// writer with ingest, and each meter's buckets are written once in it.
    fn linger(&self) -> Linger {
        LINGER
    }

    async fn apply(&self, records: &[Record], effects: Effects) -> Result<(), ApplyError> {
        let envelopes: Vec<Envelope> = records.iter().filter_map(decode).collect();
        let readings = readings_of(&envelopes);
        if readings.is_empty() {
            return Ok(());
        }
        let now = self.clock.now().timestamp_micros();
        let mut tx = self.db.begin_write().await?;
        let ids: Vec<&str> = readings.iter().map(|r| r.event_id.as_str()).collect();
        let mut new = rollups::claim(&mut tx, &ids, now).await?;
        let fresh: Vec<Reading> = readings.into_iter().filter(|r| new.remove(&r.event_id)).collect();
        rollups::add(&mut tx, &rollup::increments(&fresh, self.tz)).await?;
        let detectors = self.detectors.as_ref().filter(|_| effects == Effects::Live);
        let mut found = false;
        if let Some((detectors, relay)) = detectors {
            let alarms = detectors.after_readings(&mut tx, &fresh, now).await?;
            relay.stage(&mut tx, None, &alarms).await?;
            found = !alarms.is_empty();
        }
        tx.commit().await?;
        if let Some((_, relay)) = detectors.filter(|_| found) {
            relay.wake();
        }
        Ok(())
    }

    async fn reset(&self) -> Result<(), ApplyError> {
        let mut tx = self.db.begin_write().await?;
        rollups::reset(&mut tx).await?;
        tx.commit().await?;
        Ok(())
    }
}
