//! Writing what gateways report into the read tables. The same `persist`
//! runs when an uplink is accepted and when the tables are rebuilt from the
//! log; every write is keyed by the event id or the device, so applying an
//! event twice changes nothing.

use std::collections::HashSet;

use wm_proto::{Envelope, Payload};
use wm_storage::{
    StorageError, Tx,
    bulk::{self, Rows},
    execute,
    query::Bind,
};

use super::{alarms, shutdowns, thresholds, valve_commands};

/// A claim on an uplink: its gateway, its message id, and when the gateway
/// observed it (µs; 0 when the uplink has no timestamp).
pub type Claim<'a> = (&'a str, u64, i64);

/// Records that each uplink was accepted, and returns those that were not
/// already (the others are resends): the claims as stored, with the message
/// id signed. A claim listed twice is claimed once, and returned once. An
/// id already claimed with another time is a new uplink: its gateway's
/// counter started over (telemetry migration 14).
pub async fn claim(
    tx: &mut Tx,
    claims: &[Claim<'_>],
    now_us: i64,
) -> Result<HashSet<(String, i64, i64)>, StorageError> {
    let mut rows = Rows::new(4);
    for (gateway_id, message_id, observed_at) in claims {
        rows.push([
            (*gateway_id).into(),
            Bind::Int(message_id_value(*message_id)),
            Bind::Int(*observed_at),
            Bind::Int(now_us),
        ]);
    }
    let head = "INSERT INTO ingest_messages (gateway_id, message_id, observed_at, received_at)";
    let tail = " ON CONFLICT DO NOTHING RETURNING gateway_id, message_id, observed_at";
    Ok(bulk::fetch(tx, head, tail, rows).await?.into_iter().collect())
}

/// A message id as stored (a signed 64-bit column).
pub fn message_id_value(message_id: u64) -> i64 {
    i64::try_from(message_id).unwrap_or(i64::MAX)
}

/// Applies telemetry and shutdown events to the read tables, in order. The
/// append-only tables (activity, readings, discoveries), which no other
/// event touches, take their rows in one statement each.
pub async fn persist_all(tx: &mut Tx, envelopes: &[Envelope]) -> Result<(), StorageError> {
    for (table, columns, rows) in append_only(tx, envelopes).await? {
        let head = format!("INSERT INTO {table} ({})", columns.join(", "));
        bulk::execute(tx, &head, " ON CONFLICT DO NOTHING", rows).await?;
    }
    Ok(())
}

/// [`persist_all`] for events known to be new, as `wmeter seed` makes:
/// the append-only rows are loaded with `COPY` on PostgreSQL.
pub async fn load_all(tx: &mut Tx, envelopes: &[Envelope]) -> Result<(), StorageError> {
    for (table, columns, rows) in append_only(tx, envelopes).await? {
        bulk::copy(tx, table, columns, rows).await?;
    }
    Ok(())
}

type TableRows = (&'static str, &'static [&'static str], Rows);

/// The rows of the append-only tables, per table; the other events are
/// persisted one by one on the way.
async fn append_only(tx: &mut Tx, envelopes: &[Envelope]) -> Result<[TableRows; 4], StorageError> {
    let mut gateway_activity = Rows::new(7);
    let mut ble_activity = Rows::new(5);
    let mut readings = Rows::new(6);
    let mut discoveries = Rows::new(5);
    for (i, envelope) in envelopes.iter().enumerate() {
        let (Some(payload), Some(at)) = (&envelope.payload, envelope.occurred_at_utc()) else { continue };
        let (id, at) = (Bind::from(&envelope.event_id), Bind::Int(at.timestamp_micros()));
        match payload {
            Payload::GatewayActivity(a) => gateway_activity.push([
                id,
                (&a.gateway_id).into(),
                (&a.meter_id).into(),
                (&a.mqtt_topic).into(),
                (&a.action).into(),
                at,
                Bind::Bool(envelopes.get(i + 1).is_some_and(|next| same_uplink(envelope, next))),
            ]),
            Payload::BleActivity(b) => {
                ble_activity.push([id, (&b.gateway_id).into(), (&b.meter_id).into(), Bind::Int(b.rssi.into()), at]);
            }
            Payload::ReadingReceived(r) => {
                let activity = i.checked_sub(1).map(|p| &envelopes[p]).filter(|prev| same_uplink(prev, envelope));
                readings.push([
                    id,
                    (&r.meter_id).into(),
                    (&r.gateway_id).into(),
                    Bind::Int(r.millilitres()),
                    at,
                    activity.map(|a| a.event_id.as_str()).into(),
                ]);
            }
            Payload::PeripheralDiscovered(d) => {
                discoveries.push([id, (&d.gateway_id).into(), (&d.device_name).into(), (&d.ble_address).into(), at])
            }
            _ => persist_one(tx, envelope).await?,
        }
    }
    Ok([
        (
            "gateway_activity",
            &["event_id", "gateway_id", "meter_id", "mqtt_topic", "action", "occurred_at", "via_reading"],
            gateway_activity,
        ),
        ("ble_activity", &["event_id", "gateway_id", "meter_id", "rssi", "occurred_at"], ble_activity),
        ("readings", &["event_id", "meter_id", "gateway_id", "record_ml", "occurred_at", "activity_id"], readings),
        ("discoveries", &["event_id", "gateway_id", "device_name", "ble_address", "occurred_at"], discoveries),
    ])
}

/// Whether `activity` and `reading`, one after the other, are the gateway
/// activity and the reading of one uplink (`ingest::events` makes them so):
/// then the reading names the activity (`readings.activity_id`), and the
/// activity is found by meter through it, not through an index of its own
/// (telemetry migration 13). A rebuild, which reads the two from different
/// topics, or any doubt, leaves both unlinked, and the activity in that
/// index.
fn same_uplink(activity: &Envelope, reading: &Envelope) -> bool {
    let (Some(Payload::GatewayActivity(a)), Some(Payload::ReadingReceived(r))) = (&activity.payload, &reading.payload)
    else {
        return false;
    };
    a.gateway_id == r.gateway_id
        && a.meter_id.as_deref() == Some(r.meter_id.as_str())
        && a.message_id == r.message_id
        && activity.occurred_at == reading.occurred_at
}

/// Applies one event that is not for an append-only table.
async fn persist_one(tx: &mut Tx, envelope: &Envelope) -> Result<(), StorageError> {
    let (Some(payload), Some(at)) = (&envelope.payload, envelope.occurred_at_utc()) else { return Ok(()) };
    let at = at.timestamp_micros();
    match payload {
        Payload::AlertRaised(a) => alert(tx, &a.meter_id, &a.alert_type, true, at).await?,
        Payload::AlertCleared(a) => alert(tx, &a.meter_id, &a.alert_type, false, at).await?,
        Payload::ShutdownRequested(_) | Payload::ShutdownAnswered(_) => shutdowns::persist(tx, payload, at).await?,
        Payload::GatewayStatusChanged(g) => {
            let sql = "INSERT INTO gateway_sessions (gateway_id, online, updated_at) VALUES ($1, $2, $3) \
                       ON CONFLICT (gateway_id) DO UPDATE SET online = excluded.online, updated_at = excluded.updated_at";
            execute!(tx, sql, &g.gateway_id, g.online, at)?;
        }
        Payload::ValveCommandIssued(_)
        | Payload::ValveCommandSent(_)
        | Payload::ValveCommandTimedOut(_)
        | Payload::CommandAcknowledged(_) => {
            valve_commands::persist(tx, envelope, at).await?;
        }
        Payload::AlarmRaised(_)
        | Payload::AlarmAcknowledged(_)
        | Payload::AlarmAssigned(_)
        | Payload::AlarmCommented(_)
        | Payload::AlarmCleared(_)
        | Payload::AlarmClosed(_) => alarms::persist(tx, envelope).await?,
        Payload::MeterThresholdsSet(_) => thresholds::persist(tx, envelope).await?,
        _ => {}
    }
    Ok(())
}

/// The alert's latest state; a raise after a clear starts a new
/// `receivedAt`.
async fn alert(tx: &mut Tx, meter_id: &str, alert_type: &str, raised: bool, at: i64) -> Result<(), StorageError> {
    let sql = "INSERT INTO alerts (meter_id, alert_type, raised, received_at, updated_at) VALUES ($1, $2, $3, $4, $4) \
               ON CONFLICT (meter_id, alert_type) DO UPDATE SET raised = excluded.raised, updated_at = excluded.updated_at, \
               received_at = CASE WHEN alerts.raised THEN alerts.received_at ELSE excluded.received_at END";
    execute!(tx, sql, meter_id, alert_type, raised, at)?;
    Ok(())
}

/// Empties the read tables, before a rebuild. Accepted message ids stay:
/// they guard against resends, which a rebuild does not change.
pub async fn reset(tx: &mut Tx) -> Result<(), StorageError> {
    let tables = [
        "gateway_activity",
        "ble_activity",
        "readings",
        "alerts",
        "discoveries",
        "shutdown_requests",
        "valve_commands",
        "gateway_sessions",
        "meter_thresholds",
    ];
    for table in tables {
        execute!(tx, sqlx::AssertSqlSafe(format!("DELETE FROM {table}")))?;
    }
    alarms::reset(tx).await
}
