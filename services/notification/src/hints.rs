//! Change hints (DESIGN §11, Live pages): every open stream also gets, as
//! `event: hint`, which devices changed and how, so the dashboard refetches
//! what it shows of them. A hint names a device (its id, and its kind when
//! the event tells it) and the kinds of change; it carries no data, so
//! every user may see every hint.
//!
//! Hints are coalesced: the events of a window (`WINDOW`) make one hint, a
//! device named once with every kind of change it had. Past `MAX_DEVICES`
//! devices the hint stops naming them and says so (`complete: false`):
//! the client then refreshes by kind of change. A burst of 1,000 readings is
//! one hint, not 1,000 refetches.
//!
//! Like [`crate::push`], a group of its own from the end of the log, so
//! every replica hints its own streams. Hints are not kept: a client that
//! was away refetches on reconnecting.

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::Arc,
    time::Duration,
};

use actix_web::web::Bytes;
use serde::Serialize;
use tokio_util::sync::CancellationToken;
use wm_eventlog::{ConsumerOptions, EventLog, StartFrom, envelopes::decode};
use wm_proto::{Envelope, Payload, topics, v1::AlarmDeviceKind};

use crate::hub::Hub;

/// Events are gathered this long into one hint.
pub const WINDOW: Duration = Duration::from_millis(500);
/// The most devices one hint names.
pub const MAX_DEVICES: usize = 100;

/// The topics whose events change what a page shows.
pub const TOPICS: &[&str] = &[
    topics::REGISTRY,
    topics::GATEWAY_STATUS,
    topics::GATEWAY_ACTIVITY,
    topics::BLE_ACTIVITY,
    topics::READINGS,
    topics::ALERTS,
    topics::DISCOVERIES,
    topics::SHUTDOWN,
    topics::COMMANDS,
    topics::ALARMS,
];

/// A kind of change, as the hint names it.
pub type Change = &'static str;

/// Every kind of change, for a hint that resyncs everything.
pub const ALL_CHANGES: &[Change] =
    &["registry", "status", "activity", "ble", "reading", "alert", "discovery", "shutdown", "valve", "alarm"];

/// One hint: what changed in a window.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Hint {
    /// The devices that changed, each once.
    pub devices: Vec<DeviceHint>,
    /// Every kind of change in the window.
    pub changes: BTreeSet<Change>,
    /// `false` when more devices changed than are named.
    pub complete: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeviceHint {
    pub id: String,
    /// `meter` or `gateway`, when the event tells it.
    pub kind: Option<&'static str>,
    pub changes: BTreeSet<Change>,
}

impl Hint {
    /// Everything may have changed: after a client missed hints.
    pub fn everything() -> Hint {
        Hint { devices: Vec::new(), changes: ALL_CHANGES.iter().copied().collect(), complete: false }
    }

    /// The hint as one Server-Sent Event, with no id (hints are not resumed).
    pub fn event(&self) -> Bytes {
        let data = serde_json::to_string(self).unwrap_or_default();
        Bytes::from(format!("event: hint\ndata: {data}\n\n"))
    }
}

/// The changes of one window.
#[derive(Debug, Default)]
pub struct Coalescer {
    devices: BTreeMap<String, (Option<&'static str>, BTreeSet<Change>)>,
    changes: BTreeSet<Change>,
    overflow: bool,
}

impl Coalescer {
    /// Adds what `envelope` changed.
    pub fn add(&mut self, envelope: &Envelope) {
        for (id, kind, change) in changes(envelope) {
            self.changes.insert(change);
            if id.is_empty() {
                continue;
            }
            let known = self.devices.contains_key(&id);
            if !known && self.devices.len() >= MAX_DEVICES {
                self.overflow = true;
                continue;
            }
            let device = self.devices.entry(id).or_insert((kind, BTreeSet::new()));
            device.0 = device.0.or(kind);
            device.1.insert(change);
        }
    }

    /// The window's hint, if anything changed; starts a new window.
    pub fn take(&mut self) -> Option<Hint> {
        if self.changes.is_empty() {
            return None;
        }
        let window = std::mem::take(self);
        let devices =
            window.devices.into_iter().map(|(id, (kind, changes))| DeviceHint { id, kind, changes }).collect();
        Some(Hint { devices, changes: window.changes, complete: !window.overflow })
    }
}

/// What an event changed: `(device id, device kind, change)`, once per
/// device it is about.
fn changes(envelope: &Envelope) -> Vec<(String, Option<&'static str>, Change)> {
    let (meter, gateway) = (Some("meter"), Some("gateway"));
    let Some(payload) = &envelope.payload else { return Vec::new() };
    let device = |kind, change| vec![(envelope.device_id.clone(), kind, change)];
    match payload {
        Payload::GatewayRegistered(_) | Payload::GatewayUpdated(_) | Payload::GatewayDeleted(_) => {
            device(gateway, "registry")
        }
        Payload::MeterRegistered(_) | Payload::MeterUpdated(_) | Payload::MeterDeleted(_) => device(meter, "registry"),
        Payload::GatewayStatusChanged(_) => device(gateway, "status"),
        Payload::GatewayActivity(a) => {
            let mut changed = vec![(a.gateway_id.clone(), gateway, "activity")];
            changed.extend(a.meter_id.clone().map(|m| (m, meter, "activity")));
            changed
        }
        Payload::BleActivity(b) => vec![(b.gateway_id.clone(), gateway, "ble"), (b.meter_id.clone(), meter, "ble")],
        Payload::ReadingReceived(_) => device(meter, "reading"),
        Payload::AlertRaised(_) | Payload::AlertCleared(_) => device(meter, "alert"),
        Payload::PeripheralDiscovered(_) => device(gateway, "discovery"),
        Payload::ShutdownRequested(_) | Payload::ShutdownAnswered(_) => device(meter, "shutdown"),
        Payload::ValveCommandIssued(_)
        | Payload::ValveCommandSent(_)
        | Payload::ValveCommandTimedOut(_)
        | Payload::CommandAcknowledged(_) => device(meter, "valve"),
        Payload::AlarmRaised(a) => {
            device(if a.device_kind() == AlarmDeviceKind::Gateway { gateway } else { meter }, "alarm")
        }
        Payload::AlarmAcknowledged(_)
        | Payload::AlarmAssigned(_)
        | Payload::AlarmCommented(_)
        | Payload::AlarmCleared(_)
        | Payload::AlarmClosed(_) => device(None, "alarm"),
        Payload::MeterThresholdsSet(_) => device(meter, "thresholds"),
        _ => Vec::new(),
    }
}

/// Follows the topics of [`TOPICS`] and sends a hint to this process's
/// streams at the end of every window in which something changed.
pub async fn run(hub: Arc<Hub>, log: Arc<dyn EventLog>, stop: CancellationToken) {
    let group = format!("notification.hints.{}", uuid::Uuid::now_v7().simple());
    let options = ConsumerOptions::default().start_from(StartFrom::Latest);
    let mut consumer = loop {
        match log.subscribe(&group, TOPICS, options.clone()).await {
            Ok(consumer) => break consumer,
            Err(e) => {
                tracing::warn!(error = ?e, "cannot follow the changes for hints yet");
                tokio::select! {
                    () = stop.cancelled() => return,
                    () = tokio::time::sleep(Duration::from_secs(1)) => {}
                }
            }
        }
    };
    let mut window = Coalescer::default();
    let mut window_ends = tokio::time::Instant::now() + WINDOW;
    while !stop.is_cancelled() {
        let wait = window_ends.saturating_duration_since(tokio::time::Instant::now()).max(Duration::from_millis(10));
        match consumer.poll(1000, wait).await {
            Ok(records) => records.iter().filter_map(decode).for_each(|envelope| window.add(&envelope)),
            Err(e) => {
                tracing::warn!(error = ?e, "cannot read the changes for hints, retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
        if tokio::time::Instant::now() >= window_ends {
            if let Some(hint) = window.take() {
                hub.hint(hint.event());
            }
            window_ends = tokio::time::Instant::now() + WINDOW;
        }
    }
}

#[cfg(test)]
#[path = "hints_tests.rs"]
mod tests;
