//! What operators do to devices (register, edit, delete), carried out: the
//! aggregate decides the command against the stored state, the folded
//! result is saved, and the events and the audit record are staged in the
//! outbox, all in one transaction.

use std::{
    collections::{BTreeMap, HashMap},
    sync::Arc,
};

use chrono::{DateTime, TimeDelta, Utc};

use tracing::Instrument;
use wm_domain::{Clock, DeviceId, DeviceKind};
use wm_eventlog::{
    audit::{self, Attempt},
    outbox::Relay,
};
use wm_proto::{Envelope, Payload};
use wm_storage::{Db, StorageError, Tx};

use crate::{
    domain::{gateway, meter},
    error::RegistryError,
    import::{NewDevice, RowError},
    messages::{EDIT_PHONE_IN_USE, already_in_use},
    storage::{devices, identifiers, registrations},
};

/// The record key of every registry event. **Decision:** one key, so the
/// registry topic is one totally ordered partition. Uniqueness spans
/// devices (a serial freed by one delete is taken by the next
/// registration), so a rebuild must see registry events in the order they
/// happened, not only per device. Registrations are human-paced; one
/// partition is plenty. The envelope's `device_id` still names the device.
pub const REGISTRY_KEY: &str = "registry";

/// The most devices an import registers in one transaction.
pub const IMPORT_CHUNK: usize = 500;

/// The registry's write side.
#[derive(Clone, Debug)]
pub struct Actions {
    pub db: Db,
    pub relay: Relay,
    pub clock: Arc<dyn Clock>,
}

impl Actions {
    /// Registers a gateway and returns its new id.
    pub async fn register_gateway(
        &self,
        attempt: &Attempt,
        new: gateway::NewGateway,
    ) -> Result<DeviceId, RegistryError> {
        let id = DeviceId::with_timestamp(self.clock.now());
        let wanted = vec![
            ("serialNumber", new.serial_number.to_string()),
            ("imei", new.imei.to_string()),
            ("phoneNumber", new.phone_number.to_string()),
            ("bleAddress", new.ble_address.to_string()),
            ("macAddress", new.mac_address.to_string()),
        ];
        self.execute(attempt, DeviceKind::Gateway, id, already_in_use, async |tx: &mut Tx| {
            refuse_taken(tx, id, &wanted, already_in_use).await?;
            let registered_at = registrations::next_registered_at(tx, DeviceKind::Gateway, self.clock.now(), 1).await?;
            let command = gateway::Command::Register { id, registered_at, gateway: new };
            Ok(gateway::decide(None, false, command)?)
        })
        .await?;
        Ok(id)
    }

    /// Registers a meter and returns its new id.
    pub async fn register_meter(&self, attempt: &Attempt, new: meter::NewMeter) -> Result<DeviceId, RegistryError> {
        let id = DeviceId::with_timestamp(self.clock.now());
        let wanted = vec![("serialNumber", new.serial_number.to_string()), ("bleAddress", new.ble_address.to_string())];
        self.execute(attempt, DeviceKind::Meter, id, already_in_use, async |tx: &mut Tx| {
            refuse_taken(tx, id, &wanted, already_in_use).await?;
            let registered_at = registrations::next_registered_at(tx, DeviceKind::Meter, self.clock.now(), 1).await?;
            Ok(meter::decide(None, false, meter::Command::Register { id, registered_at, meter: new })?)
        })
        .await?;
        Ok(id)
    }

    /// Edits or deletes the gateway `id`.
    pub async fn change_gateway(
        &self,
        attempt: &Attempt,
        id: DeviceId,
        command: gateway::Command,
    ) -> Result<(), RegistryError> {
        let edit_message = |_: &str| EDIT_PHONE_IN_USE.to_owned();
        self.execute(attempt, DeviceKind::Gateway, id, edit_message, async |tx: &mut Tx| {
            let (state, seen) = devices::load_gateway(tx, &id.to_string()).await?;
            if let gateway::Command::Update(gateway::GatewayChanges { phone_number: Some(phone), .. }) = &command {
                refuse_taken(tx, id, &vec![("phoneNumber", phone.to_string())], edit_message).await?;
            }
            Ok(gateway::decide(state.as_ref(), seen, command)?)
        })
        .await
    }

    /// Edits or deletes the meter `id`.
    pub async fn change_meter(
        &self,
        attempt: &Attempt,
        id: DeviceId,
        command: meter::Command,
    ) -> Result<(), RegistryError> {
        self.execute(attempt, DeviceKind::Meter, id, already_in_use, async |tx: &mut Tx| {
            let (state, seen) = devices::load_meter(tx, &id.to_string()).await?;
            Ok(meter::decide(state.as_ref(), seen, command)?)
        })
        .await
    }

    /// Registers the new devices of an import (`crate::import`), up to
    /// [`IMPORT_CHUNK`] to a transaction, each as a registration is: its
    /// event and its audit record. A row whose identifiers another device
    /// took since the check is skipped with the spec's "already in use".
    /// Returns how many were registered, and the rows skipped. A chunk is
    /// some ten statements whatever its size: its identifiers looked up in
    /// one, its devices written in a few ([`registrations::register`]), its
    /// events and audit records staged in one each (docs/devices-csv.md
    /// "Speed").
    pub async fn register_all(
        &self,
        attempt: &Attempt,
        new: Vec<(usize, NewDevice)>,
    ) -> Result<(usize, Vec<RowError>), RegistryError> {
        let (mut registered, mut skipped) = (0, Vec::new());
        for chunk in new.chunks(IMPORT_CHUNK) {
            let mut tx = self.db.begin_write().await?;
            let wanted: identifiers::Identifiers = chunk.iter().flat_map(|(_, device)| device.identifiers()).collect();
            // Read beside the transaction: SQLite's writer is this one, and
            // on PostgreSQL the identifiers' insert still refuses a pair
            // taken since.
            let mut held = identifiers::owners(&self.db, &wanted).await?;
            let mut accepted = Vec::with_capacity(chunk.len());
            for (row, device) in chunk {
                let claims = device.identifiers();
                let is_held =
                    |(field, value): &(&str, String)| held.contains_key(&((*field).to_owned(), value.clone()));
                if claims.iter().any(is_held) {
                    let errors = claims.iter().filter(|pair| is_held(pair)).map(|(field, _)| RowError {
                        row: *row,
                        field: (*field).to_owned(),
                        message: already_in_use(field),
                    });
                    skipped.extend(errors);
                    continue;
                }
                let id = DeviceId::with_timestamp(self.clock.now());
                held.extend(claims.into_iter().map(|(field, value)| ((field.to_owned(), value), id.to_string())));
                accepted.push((id, device));
            }
            registered += accepted.len();
            let (events, audits) = self.register_chunk(&mut tx, attempt, accepted).await?;
            self.relay.stage(&mut tx, Some(REGISTRY_KEY), &events).await?;
            audit::stage_all(&mut tx, &self.relay, &audits).await?;
            tx.commit().await?;
            self.relay.wake();
        }
        Ok((registered, skipped))
    }

    /// Registers `devices` in `tx`, their `registeredAt`s handed out in
    /// one statement a kind; returns their events, and their audit records.
    async fn register_chunk(
        &self,
        tx: &mut Tx,
        attempt: &Attempt,
        devices: Vec<(DeviceId, &NewDevice)>,
    ) -> Result<(Vec<Envelope>, Vec<Envelope>), RegistryError> {
        let now = self.clock.now();
        let mut times = HashMap::new();
        for kind in [DeviceKind::Gateway, DeviceKind::Meter] {
            let n = devices.iter().filter(|(_, device)| device.kind() == kind).count();
            if let Ok(n @ 1..) = u32::try_from(n) {
                times.insert(kind, registrations::next_registered_at(tx, kind, now, n).await?);
            }
        }
        let mut decided = Vec::with_capacity(devices.len());
        for (id, device) in devices {
            let Some(registered_at) = times.get_mut(&device.kind()) else { continue };
            let at = *registered_at;
            *registered_at += TimeDelta::microseconds(1);
            let events = match device.clone() {
                NewDevice::Gateway(gateway) => {
                    gateway::decide(None, false, gateway::Command::Register { id, registered_at: at, gateway })?
                }
                NewDevice::Meter(meter) => {
                    meter::decide(None, false, meter::Command::Register { id, registered_at: at, meter })?
                }
            };
            decided.push((device.kind(), id, events));
        }
        let payloads: Vec<Payload> = decided.iter().flat_map(|(_, _, events)| events.iter().cloned()).collect();
        registrations::register(tx, &payloads).await.map_err(|e| refused(e, &already_in_use))?;
        let mut after = HashMap::new();
        for kind in [DeviceKind::Gateway, DeviceKind::Meter] {
            let ids: Vec<String> = decided.iter().filter(|d| d.0 == kind).map(|d| d.1.to_string()).collect();
            after.extend(registrations::audit_snapshots(tx, kind, &ids).await?);
        }
        let (mut events, mut audits) = (Vec::new(), Vec::with_capacity(decided.len()));
        for (_, id, payloads) in decided {
            let snapshot = after.remove(&id.to_string());
            let (envelopes, audit) = recorded(attempt, id, None, snapshot, payloads, now);
            events.extend(envelopes);
            audits.push(audit);
        }
        Ok((events, audits))
    }

    /// Runs `decide` in a write transaction, persists and stages its
    /// events with the audit record of `attempt` (the device before and
    /// after), and commits. `in_use` words a uniqueness conflict that only
    /// the database caught (a concurrent request won the race).
    async fn execute(
        &self,
        attempt: &Attempt,
        kind: DeviceKind,
        id: DeviceId,
        in_use: impl Fn(&str) -> String,
        decide: impl AsyncFnOnce(&mut Tx) -> Result<Vec<Payload>, RegistryError>,
    ) -> Result<(), RegistryError> {
        let transaction = async {
            let mut tx = self.db.begin_write().await?;
            let before = devices::audit_snapshot(&mut tx, kind, &id.to_string()).await?;
            let events = decide(&mut tx).await?;
            self.record(&mut tx, attempt, (kind, id), before, events, &in_use).await?;
            Ok::<_, RegistryError>(tx.commit().await?)
        };
        transaction.instrument(tracing::info_span!("transaction", db.system = self.db.backend().system())).await?;
        self.relay.wake();
        Ok(())
    }

    /// Persists `events` of the device `id` in `tx`, and stages them with
    /// the audit record of `attempt`, from `before` to the device after.
    async fn record(
        &self,
        tx: &mut Tx,
        attempt: &Attempt,
        device: (DeviceKind, DeviceId),
        before: Option<String>,
        events: Vec<Payload>,
        in_use: &dyn Fn(&str) -> String,
    ) -> Result<(), RegistryError> {
        let (envelopes, audit) = self.persist(tx, attempt, device, before, events, in_use).await?;
        self.relay.stage(tx, Some(REGISTRY_KEY), &envelopes).await?;
        audit::stage(tx, &self.relay, &audit).await?;
        Ok(())
    }

    /// Persists `events` of the device `id` in `tx`; the envelopes to
    /// stage, and the audit record of `attempt` from `before` to the
    /// device after.
    async fn persist(
        &self,
        tx: &mut Tx,
        attempt: &Attempt,
        (kind, id): (DeviceKind, DeviceId),
        before: Option<String>,
        events: Vec<Payload>,
        in_use: &dyn Fn(&str) -> String,
    ) -> Result<(Vec<Envelope>, Envelope), RegistryError> {
        for event in &events {
            devices::persist(tx, event).await.map_err(|e| refused(e, in_use))?;
        }
        let after = devices::audit_snapshot(tx, kind, &id.to_string()).await?;
        Ok(recorded(attempt, id, before, after, events, self.clock.now()))
    }
}

/// The envelopes of `events` of the device `id`, and the audit record of
/// `attempt` from `before` to `after`, both at `now`.
fn recorded(
    attempt: &Attempt,
    id: DeviceId,
    before: Option<String>,
    after: Option<String>,
    events: Vec<Payload>,
    now: DateTime<Utc>,
) -> (Vec<Envelope>, Envelope) {
    let envelopes: Vec<Envelope> = events
        .into_iter()
        .map(|event| Envelope::new(id.to_string(), &attempt.actor, event).with_occurred_at(now))
        .collect();
    (envelopes, attempt.clone().on(&id.to_string()).succeeded(before, after, now))
}

/// A storage error as the registry's: an identifier the database found
/// taken is the field's conflict, worded by `in_use`.
fn refused(e: StorageError, in_use: &dyn Fn(&str) -> String) -> RegistryError {
    match e {
        StorageError::Taken { field, .. } => RegistryError::Taken(BTreeMap::from([(field.to_owned(), in_use(field))])),
        other => other.into(),
    }
}

/// Fails with every field of `wanted` that another device holds.
async fn refuse_taken(
    tx: &mut Tx,
    id: DeviceId,
    wanted: &identifiers::Identifiers,
    in_use: impl Fn(&str) -> String,
) -> Result<(), RegistryError> {
    let taken = identifiers::taken(tx, &id.to_string(), wanted).await?;
    if taken.is_empty() {
        return Ok(());
    }
    Err(RegistryError::Taken(taken.into_iter().map(|field| (field.to_owned(), in_use(field))).collect()))
}
