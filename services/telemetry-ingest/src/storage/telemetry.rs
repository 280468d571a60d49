//! Writing what gateways report into the read tables. The same `persist`
//! runs when an uplink is accepted and when the tables are rebuilt from the
//! log; every write is keyed by the event id or the device, so applying an
//! event twice changes nothing.

use wm_proto::{
    Envelope, Payload,
    v1::{ShutdownAnswerStatus, VolumeUnit},
};
use wm_storage::Tx;

use super::execute;

/// Records that `(gateway_id, message_id)` was accepted; false when it
/// already was (a resend).
pub async fn claim(tx: &mut Tx, gateway_id: &str, message_id: u64, now_us: i64) -> Result<bool, sqlx::Error> {
    let sql = "INSERT INTO ingest_messages (gateway_id, message_id, received_at) VALUES ($1, $2, $3) \
               ON CONFLICT DO NOTHING";
    let message_id = i64::try_from(message_id).unwrap_or(i64::MAX);
    Ok(execute!(tx, sql, gateway_id, message_id, now_us)? > 0)
}

/// Applies one telemetry or shutdown event to the read tables.
pub async fn persist(tx: &mut Tx, envelope: &Envelope) -> Result<(), sqlx::Error> {
    let (Some(payload), Some(at)) = (&envelope.payload, envelope.occurred_at_utc()) else { return Ok(()) };
    let (id, at) = (envelope.event_id.as_str(), at.timestamp_micros());
    match payload {
        Payload::GatewayActivity(a) => {
            let sql = "INSERT INTO gateway_activity (event_id, gateway_id, meter_id, mqtt_topic, action, occurred_at) \
                       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING";
            execute!(tx, sql, id, &a.gateway_id, &a.meter_id, &a.mqtt_topic, &a.action, at)?;
        }
        Payload::BleActivity(b) => {
            let sql = "INSERT INTO ble_activity (event_id, gateway_id, meter_id, rssi, occurred_at) \
                       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING";
            execute!(tx, sql, id, &b.gateway_id, &b.meter_id, b.rssi, at)?;
        }
        Payload::ReadingReceived(r) => {
            let per_unit = if r.unit() == VolumeUnit::Millilitre { 1 } else { 1000 };
            let ml = i64::try_from(r.record).unwrap_or(i64::MAX).saturating_mul(per_unit);
            let sql = "INSERT INTO readings (event_id, meter_id, gateway_id, record_ml, occurred_at) \
                       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING";
            execute!(tx, sql, id, &r.meter_id, &r.gateway_id, ml, at)?;
        }
        Payload::AlertRaised(a) => alert(tx, &a.meter_id, &a.alert_type, true, at).await?,
        Payload::AlertCleared(a) => alert(tx, &a.meter_id, &a.alert_type, false, at).await?,
        Payload::PeripheralDiscovered(d) => {
            let sql = "INSERT INTO discoveries (event_id, gateway_id, device_name, ble_address, occurred_at) \
                       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING";
            execute!(tx, sql, id, &d.gateway_id, &d.device_name, &d.ble_address, at)?;
        }
        Payload::ShutdownRequested(s) => {
            let sql = "INSERT INTO shutdown_requests (request_id, meter_id, gateway_id, status, requested_at) \
                       VALUES ($1, $2, $3, 'requested', $4) ON CONFLICT DO NOTHING";
            execute!(tx, sql, &s.request_id, &s.meter_id, &s.gateway_id, at)?;
        }
        Payload::ShutdownAnswered(a) => {
            let status = if a.status() == ShutdownAnswerStatus::Confirmed { "confirmed" } else { "rejected" };
            let sql = "UPDATE shutdown_requests SET status = $1, answered_at = $2, answered_by = $3 \
                       WHERE request_id = $4 AND status = 'requested'";
            execute!(tx, sql, status, at, &a.answered_by, &a.request_id)?;
        }
        Payload::ValveCommandIssued(_) | Payload::ValveCommandSent(_) | Payload::CommandAcknowledged(_) => {
            super::commands::persist(tx, payload, at).await?;
        }
        _ => {}
    }
    Ok(())
}

/// The alert's latest state; a raise after a clear starts a new
/// `receivedAt`.
async fn alert(tx: &mut Tx, meter_id: &str, alert_type: &str, raised: bool, at: i64) -> Result<(), sqlx::Error> {
    let sql = "INSERT INTO alerts (meter_id, alert_type, raised, received_at, updated_at) VALUES ($1, $2, $3, $4, $4) \
               ON CONFLICT (meter_id, alert_type) DO UPDATE SET raised = excluded.raised, updated_at = excluded.updated_at, \
               received_at = CASE WHEN alerts.raised THEN alerts.received_at ELSE excluded.received_at END";
    execute!(tx, sql, meter_id, alert_type, raised, at)?;
    Ok(())
}

/// Empties the read tables, before a rebuild. Accepted message ids stay:
/// they guard against resends, which a rebuild does not change.
pub async fn reset(tx: &mut Tx) -> Result<(), sqlx::Error> {
    let tables = [
        "gateway_activity",
        "ble_activity",
        "readings",
        "alerts",
        "discoveries",
        "shutdown_requests",
        "valve_commands",
    ];
    for table in tables {
        execute!(tx, sqlx::AssertSqlSafe(format!("DELETE FROM {table}")))?;
    }
    Ok(())
}
