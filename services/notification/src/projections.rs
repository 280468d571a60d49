//! The notification service's projections:
//! - `notification.rules` turns alerts and shutdown requests into
//!   notifications, live only (a rebuild restores the notifications from
//!   their own events instead, and notifies nobody);
//! - `notification.directory` keeps users, device names, gateway sightings
//!   and which gateway relays each meter, and notifies a lost gateway's
//!   return; its live batches wait while it is rebuilt;
//! - `notification.inbox` rebuilds the notifications from their own events;
//! - `notification.alarm-rules` ([`crate::alarm_rules`]) queues the alarm
//!   rules' deliveries.

use std::collections::HashMap;

use async_trait::async_trait;
use wm_eventlog::{
    Record, checkpoint,
    envelopes::decode,
    projection::{ApplyError, Effects, Linger, Projection},
};
use wm_proto::{Envelope, Payload, topics};
use wm_storage::Tx;

use crate::{
    rules,
    state::{NotificationState, stage},
    storage::{alarm_rules, directory, inbox},
};

#[derive(Clone, Debug)]
pub struct RulesProjection(pub NotificationState);

#[async_trait]
impl Projection for RulesProjection {
    fn name(&self) -> &'static str {
        "notification.rules"
    }

    fn topics(&self) -> &'static [&'static str] {
        &[topics::ALERTS, topics::SHUTDOWN]
    }

    async fn apply(&self, records: &[Record], effects: Effects) -> Result<(), ApplyError> {
        if effects == Effects::Suppressed {
            return Ok(());
        }
        let state = &self.0;
        let mut tx = state.db.begin_write().await?;
        let mut created = Vec::new();
        for envelope in records.iter().filter_map(decode) {
            if let Some(subject) = envelope.payload.as_ref().and_then(rules::subject) {
                created.extend(rules::notify(&mut tx, &envelope.event_id, &subject, state.clock.now()).await?);
            }
        }
        stage(&state.relay, &mut tx, &created).await?;
        tx.commit().await?;
        state.relay.wake();
        Ok(())
    }

    /// Nothing to empty: the notifications belong to `notification.inbox`.
    async fn reset(&self) -> Result<(), ApplyError> {
        Ok(())
    }
}

const DIRECTORY: &str = "notification.directory";

#[derive(Clone, Debug)]
pub struct DirectoryProjection(pub NotificationState);

#[async_trait]
impl Projection for DirectoryProjection {
    fn name(&self) -> &'static str {
        DIRECTORY
    }

    fn topics(&self) -> &'static [&'static str] {
        &[topics::AUTH, topics::REGISTRY, topics::GATEWAY_ACTIVITY]
    }

    fn linger(&self) -> Linger {
        Linger::TELEMETRY
    }

    async fn apply(&self, records: &[Record], effects: Effects) -> Result<(), ApplyError> {
        let state = &self.0;
        let mut tx = state.db.begin_write().await?;
        // A role changed or a device deleted live would be undone by the
        // rebuild's older events, were it applied before the rebuild ends.
        checkpoint::hold_while_rebuilding(&mut tx, DIRECTORY, effects).await?;
        let mut created = Vec::new();
        // Runs of gateway activity are written once per gateway; any other
        // event first writes the run before it, so the order holds.
        let mut run = SeenRun::default();
        for envelope in records.iter().filter_map(decode) {
            let Some(payload) = &envelope.payload else { continue };
            if let Payload::GatewayActivity(activity) = payload {
                let at = envelope.recorded_at_utc().map_or(0, |t| t.timestamp_micros());
                run.add(&activity.gateway_id, at, &envelope.event_id);
                if let Some(meter_id) = &activity.meter_id {
                    run.relays.insert(meter_id.clone(), activity.gateway_id.clone());
                }
            } else {
                created.extend(run.flush(&mut tx, state, effects).await?);
                directory::apply(&mut tx, payload).await?;
            }
        }
        created.extend(run.flush(&mut tx, state, effects).await?);
        stage(&state.relay, &mut tx, &created).await?;
        tx.commit().await?;
        state.relay.wake();
        Ok(())
    }

    async fn reset(&self) -> Result<(), ApplyError> {
        let mut tx = self.0.db.begin_write().await?;
        directory::reset(&mut tx).await?;
        checkpoint::begin_rebuild(&mut tx, DIRECTORY).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn rebuilt(&self) -> Result<(), ApplyError> {
        Ok(checkpoint::end_rebuild(&self.0.db, DIRECTORY).await?)
    }
}

#[derive(Clone, Debug)]
pub struct InboxProjection(pub NotificationState);

#[async_trait]
impl Projection for InboxProjection {
    fn name(&self) -> &'static str {
        "notification.inbox"
    }

    fn topics(&self) -> &'static [&'static str] {
        &[topics::NOTIFICATIONS]
    }

    fn live(&self) -> bool {
        false
    }

    async fn apply(&self, records: &[Record], _effects: Effects) -> Result<(), ApplyError> {
        let mut tx = self.0.db.begin_write().await?;
        for envelope in records.iter().filter_map(decode) {
            rules::persist(&mut tx, &envelope).await?;
        }
        inbox::continue_seq(&mut tx).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn reset(&self) -> Result<(), ApplyError> {
        let mut tx = self.0.db.begin_write().await?;
        inbox::reset(&mut tx).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// Gateway activity not written yet: each gateway's latest time, the
/// first event that heard it (the one a "back" notification answers), and
/// the gateway that relayed each meter last (alarm rules on a gateway's
/// meters).
#[derive(Default)]
struct SeenRun {
    latest: HashMap<String, i64>,
    first_event: HashMap<String, String>,
    relays: HashMap<String, String>,
}

impl SeenRun {
    fn add(&mut self, gateway_id: &str, at: i64, event_id: &str) {
        let latest = self.latest.entry(gateway_id.to_owned()).or_insert(at);
        *latest = (*latest).max(at);
        self.first_event.entry(gateway_id.to_owned()).or_insert_with(|| event_id.to_owned());
    }

    /// Writes the run; returns the notifications of the gateways that are back.
    async fn flush(
        &mut self,
        tx: &mut Tx,
        state: &NotificationState,
        effects: Effects,
    ) -> Result<Vec<Envelope>, ApplyError> {
        if self.latest.is_empty() {
            return Ok(Vec::new());
        }
        alarm_rules::relayed(tx, &self.relays).await?;
        self.relays.clear();
        let back = directory::gateways_seen(tx, &self.latest).await?;
        let mut created = Vec::new();
        if effects == Effects::Live {
            let mut back: Vec<&String> = back.iter().collect();
            back.sort();
            for gateway_id in back {
                let event_id = self.first_event.get(gateway_id).map_or("", String::as_str);
                let subject = rules::gateway(gateway_id, false);
                created.extend(rules::notify(tx, event_id, &subject, state.clock.now()).await?);
            }
        }
        self.latest.clear();
        self.first_event.clear();
        Ok(created)
    }
}
