//! Writing the state side of devices, from telemetry and shutdown events:
//! last seen, online session, totals, counters, critical and down.
//! Every function runs inside the projection's transaction, which also
//! advances its checkpoint, so none of them is applied twice.

use wm_storage::{Tx, with_tx};

use super::StorageError;

macro_rules! execute {
    ($tx:expr, $sql:expr $(, $bind:expr)*) => {
        with_tx!($tx, conn => sqlx::query($sql)$(.bind($bind))*.execute(&mut **conn).await.map(|r| r.rows_affected()))
    };
}

/// The later of the stored time and `$1`.
const LATER: &str = "CASE WHEN lastseen IS NULL OR lastseen < $1 THEN $1 ELSE lastseen END";

/// The gateway (and the meter, if any) was heard from at `at` (µs).
pub async fn seen(tx: &mut Tx, gateway_id: &str, meter_id: Option<&str>, at: i64) -> Result<(), StorageError> {
    let gateway = format!("UPDATE gateways SET lastseen = {LATER}, last_activity = {LATER} WHERE id = $2");
    execute!(tx, sqlx::AssertSqlSafe(gateway), at, gateway_id)?;
    if let Some(meter_id) = meter_id {
        let meter = format!("UPDATE meters SET lastseen = {LATER}, last_activity = {LATER} WHERE id = $2");
        execute!(tx, sqlx::AssertSqlSafe(meter), at, meter_id)?;
    }
    Ok(())
}

/// The gateway's MQTT session went up or down.
pub async fn session(tx: &mut Tx, gateway_id: &str, online: bool) -> Result<(), StorageError> {
    execute!(tx, "UPDATE gateways SET session_online = $1 WHERE id = $2", online, gateway_id)?;
    Ok(())
}

/// A consumption record of `ml` millilitres for the meter, relayed by the
/// gateway, which becomes the meter's last gateway.
pub async fn reading(tx: &mut Tx, meter_id: &str, gateway_id: &str, ml: i64) -> Result<(), StorageError> {
    let sql = "SELECT last_gateway_id FROM meters WHERE id = $1";
    let previous: Option<Option<String>> =
        with_tx!(tx, conn => sqlx::query_scalar(sql).bind(meter_id).fetch_optional(&mut **conn).await)?;
    let Some(previous) = previous else { return Ok(()) };
    let sql = "UPDATE meters SET total_consumption_ml = total_consumption_ml + $1, last_gateway_id = $2 WHERE id = $3";
    execute!(tx, sql, ml, gateway_id, meter_id)?;
    execute!(tx, "UPDATE gateways SET records_count = records_count + 1 WHERE id = $1", gateway_id)?;
    if previous.as_deref() != Some(gateway_id) {
        let sql = "UPDATE gateways SET water_meters_count = water_meters_count + $1 WHERE id = $2";
        execute!(tx, sql, 1_i64, gateway_id)?;
        if let Some(previous) = previous {
            execute!(tx, sql, -1_i64, previous)?;
        }
    }
    Ok(())
}

/// An alert of `alert_type` was raised on the meter: it is critical.
pub async fn alert_raised(tx: &mut Tx, meter_id: &str, alert_type: &str) -> Result<(), StorageError> {
    let sql = "INSERT INTO meter_alerts (meter_id, alert_type) VALUES ($1, $2) ON CONFLICT DO NOTHING";
    if execute!(tx, sql, meter_id, alert_type)? > 0 {
        let sql = "UPDATE meters SET raised_alerts = raised_alerts + 1, critical = TRUE WHERE id = $1";
        execute!(tx, sql, meter_id)?;
    }
    Ok(())
}

/// The meter's alert of `alert_type` cleared: critical while others remain.
pub async fn alert_cleared(tx: &mut Tx, meter_id: &str, alert_type: &str) -> Result<(), StorageError> {
    let sql = "DELETE FROM meter_alerts WHERE meter_id = $1 AND alert_type = $2";
    if execute!(tx, sql, meter_id, alert_type)? > 0 {
        let sql = "UPDATE meters SET raised_alerts = raised_alerts - 1, critical = (raised_alerts > 1) WHERE id = $1";
        execute!(tx, sql, meter_id)?;
    }
    Ok(())
}

/// The gateway discovered the peripheral `ble_address`.
pub async fn discovered(tx: &mut Tx, gateway_id: &str, ble_address: &str) -> Result<(), StorageError> {
    let sql = "INSERT INTO gateway_peripherals (gateway_id, ble_address) VALUES ($1, $2) ON CONFLICT DO NOTHING";
    if execute!(tx, sql, gateway_id, ble_address)? > 0 {
        let sql = "UPDATE gateways SET discovered_peripherals_count = discovered_peripherals_count + 1 WHERE id = $1";
        execute!(tx, sql, gateway_id)?;
    }
    Ok(())
}

/// A confirmed shutdown switched the meter off.
pub async fn switched_off(tx: &mut Tx, meter_id: &str) -> Result<(), StorageError> {
    execute!(tx, "UPDATE meters SET device_status = 'Down' WHERE id = $1", meter_id)?;
    Ok(())
}

/// The meter's latest valve command was queued.
pub async fn command_issued(tx: &mut Tx, meter_id: &str, command_id: &str) -> Result<(), StorageError> {
    let sql = "UPDATE meters SET valve_command_id = $1, valve_command_status = 'pending' WHERE id = $2";
    execute!(tx, sql, command_id, meter_id)?;
    Ok(())
}

/// A command moved on: `sent`, `acked` or `failed`; never backwards.
pub async fn command_status(tx: &mut Tx, command_id: &str, status: &str) -> Result<(), StorageError> {
    let from = if status == "sent" { "('pending')" } else { "('pending', 'sent')" };
    let sql = format!(
        "UPDATE meters SET valve_command_status = $1 WHERE valve_command_id = $2 AND valve_command_status IN {from}"
    );
    execute!(tx, sqlx::AssertSqlSafe(sql), status, command_id)?;
    Ok(())
}

/// Forgets every state column, before a rebuild.
pub async fn reset(tx: &mut Tx) -> Result<(), StorageError> {
    execute!(
        tx,
        "UPDATE gateways SET lastseen = NULL, last_activity = registered_at, session_online = FALSE, \
         discovered_peripherals_count = 0, records_count = 0, water_meters_count = 0"
    )?;
    execute!(
        tx,
        "UPDATE meters SET lastseen = NULL, last_activity = registered_at, total_consumption_ml = 0, \
         raised_alerts = 0, critical = FALSE, device_status = 'Up', last_gateway_id = NULL, \
         valve_command_id = NULL, valve_command_status = NULL"
    )?;
    execute!(tx, "DELETE FROM meter_alerts")?;
    execute!(tx, "DELETE FROM gateway_peripherals")?;
    Ok(())
}
