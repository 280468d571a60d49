//! Writing the state side of devices, from telemetry and shutdown events:
//! last seen, online session, totals, counters, critical and down.
//! Every function runs inside the projection's transaction, which also
//! advances its checkpoint, so none of them is applied twice.

use std::collections::{HashMap, HashSet};

use wm_domain::ValveStatus;

use wm_storage::{
    Db, StorageError, Tx,
    bulk::{self, Rows},
    execute, prune,
    query::Bind,
};

/// Records that the reading events `event_ids` are in the totals, and
/// returns those that were not already: the others were sent twice. An id
/// listed twice is returned once.
pub async fn claim_readings(tx: &mut Tx, event_ids: &[&str], now_us: i64) -> Result<HashSet<String>, StorageError> {
    let mut rows = Rows::new(2);
    event_ids.iter().for_each(|id| rows.push([(*id).into(), Bind::Int(now_us)]));
    let head = "INSERT INTO registry_applied_readings (event_id, applied_at)";
    let tail = " ON CONFLICT DO NOTHING RETURNING event_id";
    let claimed: Vec<(String,)> = bulk::fetch(tx, head, tail, rows).await?;
    Ok(claimed.into_iter().map(|(id,)| id).collect())
}

/// Forgets the claims made before `before_us`; returns how many.
pub async fn forget_claims(db: &Db, before_us: i64) -> Result<u64, StorageError> {
    prune::older_than(db, "registry_applied_readings", "applied_at", "event_id", before_us).await
}

/// A consumption record of `ml` millilitres for a meter, relayed by a
/// gateway, which becomes the meter's last gateway.
#[derive(Clone, Debug)]
pub struct Reading<'a> {
    pub meter_id: &'a str,
    pub gateway_id: &'a str,
    pub ml: i64,
}

/// What a batch of events heard: the latest time each device was heard
/// from (µs), by id, and the new readings in order.
#[derive(Debug, Default)]
pub struct Heard<'a> {
    pub gateways: HashMap<String, i64>,
    pub meters: HashMap<String, i64>,
    pub readings: Vec<Reading<'a>>,
}

/// Applies what a batch heard in three statements: the meters' last
/// gateways are read, the sums and moves are worked out here, and each meter
/// and gateway is updated once, its last-seen time and its totals together.
/// One version of each row per batch, not two: on PostgreSQL, an update of
/// `last_activity` (indexed) writes a new entry in every index of the table
/// (docs/performance.md §2).
pub async fn heard(tx: &mut Tx, heard: &Heard<'_>) -> Result<(), StorageError> {
    let ids: HashSet<&str> = heard.readings.iter().map(|r| r.meter_id).collect();
    let ids = ids.into_iter().map(Bind::from).collect();
    let stored: Vec<(String, Option<String>)> =
        bulk::fetch_in(tx, "SELECT id, last_gateway_id FROM meters", "id", ids).await?;
    let mut last: HashMap<String, Option<String>> = stored.into_iter().collect();
    let mut meters: HashMap<&str, i64> = HashMap::new();
    // Per gateway: readings relayed, and the move in its meters' count.
    let mut gateways: HashMap<String, (i64, i64)> = HashMap::new();
    for r in &heard.readings {
        let Some(previous) = last.get_mut(r.meter_id) else { continue };
        *meters.entry(r.meter_id).or_default() += r.ml;
        gateways.entry(r.gateway_id.to_owned()).or_default().0 += 1;
        if previous.as_deref() != Some(r.gateway_id) {
            gateways.entry(r.gateway_id.to_owned()).or_default().1 += 1;
            if let Some(previous) = previous.replace(r.gateway_id.to_owned()) {
                gateways.entry(previous).or_default().1 -= 1;
            }
        }
    }
    let mut rows = Rows::new(4);
    for id in heard.meters.keys().map(String::as_str).chain(meters.keys().copied()).collect::<HashSet<_>>() {
        // `last` holds the meters with readings: a meter only heard from keeps its last gateway.
        let gateway = last.get(id).cloned().flatten();
        let ml = meters.get(id).copied().unwrap_or_default();
        rows.push([id.into(), heard.meters.get(id).copied().into(), Bind::Int(ml), gateway.into()]);
    }
    let head = format!(
        "UPDATE meters SET {SEEN}, total_consumption_ml = total_consumption_ml + v.column3, \
         last_gateway_id = COALESCE(v.column4, last_gateway_id) FROM ("
    );
    bulk::execute(tx, &head, ") AS v WHERE meters.id = v.column1", rows).await?;
    let mut rows = Rows::new(4);
    for id in heard.gateways.keys().chain(gateways.keys()).map(String::as_str).collect::<HashSet<_>>() {
        let (records, moved) = gateways.get(id).copied().unwrap_or_default();
        rows.push([id.into(), heard.gateways.get(id).copied().into(), Bind::Int(records), Bind::Int(moved)]);
    }
    let head = format!(
        "UPDATE gateways SET {SEEN}, records_count = records_count + v.column3, \
         water_meters_count = water_meters_count + v.column4 FROM ("
    );
    bulk::execute(tx, &head, ") AS v WHERE gateways.id = v.column1", rows).await?;
    Ok(())
}

/// A device heard from at `v.column2` (µs; `NULL` if only its totals move)
/// was last seen then, unless it was seen later already.
const SEEN: &str = "lastseen = CASE WHEN v.column2 IS NULL THEN lastseen \
    WHEN lastseen IS NULL OR lastseen < v.column2 THEN v.column2 ELSE lastseen END, \
    last_activity = CASE WHEN v.column2 IS NULL THEN last_activity \
    WHEN lastseen IS NULL OR lastseen < v.column2 THEN v.column2 ELSE lastseen END";

/// The gateway's MQTT session went up or down.
pub async fn session(tx: &mut Tx, gateway_id: &str, online: bool) -> Result<(), StorageError> {
    execute!(tx, "UPDATE gateways SET session_online = $1 WHERE id = $2", online, gateway_id)?;
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
    let sql = "UPDATE meters SET valve_command_id = $1, valve_command_status = $2 WHERE id = $3";
    execute!(tx, sql, command_id, ValveStatus::Pending.as_str(), meter_id)?;
    Ok(())
}

/// A command moved on: sent, acked, failed or timed out; never backwards.
pub async fn command_status(tx: &mut Tx, command_id: &str, status: ValveStatus) -> Result<(), StorageError> {
    for from in status.reached_from() {
        let sql =
            "UPDATE meters SET valve_command_status = $1 WHERE valve_command_id = $2 AND valve_command_status = $3";
        execute!(tx, sql, status.as_str(), command_id, from.as_str())?;
    }
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
    execute!(tx, "DELETE FROM registry_applied_readings")?;
    Ok(())
}
