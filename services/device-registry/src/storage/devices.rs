//! Writing the registration side of gateways and meters: the folded
//! aggregate state is saved, with its identifiers claimed, the totals kept
//! and `registeredAt` handed out strictly increasing. Actions and the
//! rebuild from events both go through [`persist`].

use chrono::{DateTime, Utc};
use wm_domain::DeviceKind;
use wm_proto::Payload;
use wm_storage::{StorageError, Tx, execute, with_tx};

use super::{
    identifiers,
    lists::Table,
    micros,
    rows::{GatewayRow, MeterRow},
};
use crate::domain::{gateway, meter};

/// The gateway `id` as it stands in `tx` (locked for the rest of the
/// transaction on PostgreSQL), and whether it was ever seen.
pub async fn load_gateway(tx: &mut Tx, id: &str) -> Result<(Option<gateway::Gateway>, bool), StorageError> {
    let row = locked::<GatewayRow>(tx, id).await?;
    let seen = row.as_ref().is_some_and(|r| r.lastseen.is_some());
    Ok((row.map(|r| r.state()).transpose()?, seen))
}

/// The meter `id`, as [`load_gateway`].
pub async fn load_meter(tx: &mut Tx, id: &str) -> Result<(Option<meter::Meter>, bool), StorageError> {
    let row = locked::<MeterRow>(tx, id).await?;
    let seen = row.as_ref().is_some_and(|r| r.lastseen.is_some());
    Ok((row.map(|r| r.state()).transpose()?, seen))
}

/// The device `id` of `kind` as the audit trail shows it: the fields an
/// operator registers and edits, as JSON; `None` when there is none. Read
/// locked, like [`load_gateway`], so the "before" of a change is what the
/// change saw.
pub async fn audit_snapshot(tx: &mut Tx, kind: DeviceKind, id: &str) -> Result<Option<String>, StorageError> {
    let json = match kind {
        DeviceKind::Gateway => locked::<GatewayRow>(tx, id).await?.map(|r| r.audit_json()),
        DeviceKind::Meter => locked::<MeterRow>(tx, id).await?.map(|r| r.audit_json()),
    };
    Ok(json.map(|value| value.to_string()))
}

/// The row `id` of `T`'s table in `tx`, locked for the rest of the
/// transaction on PostgreSQL (SQLite's writer lock already holds the file).
async fn locked<T: Table>(tx: &mut Tx, id: &str) -> Result<Option<T>, StorageError> {
    let sql = format!("SELECT {} FROM {} WHERE id = $1{}", T::COLUMNS, T::TABLE, tx.lock_rows());
    Ok(with_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(&mut **conn).await)?)
}

/// The `registeredAt` of the first of `n` new devices of `kind`, the others
/// following it a microsecond apart: `now`, or one microsecond after the
/// last one handed out if that is not later, as `n` registrations one
/// after the other would get. The counter row's lock serializes concurrent
/// registrations.
pub async fn next_registered_at(
    tx: &mut Tx,
    kind: DeviceKind,
    now: DateTime<Utc>,
    n: u32,
) -> Result<DateTime<Utc>, StorageError> {
    let sql = "UPDATE registry_clock \
               SET last_micros = CASE WHEN last_micros >= $1 THEN last_micros + $3 ELSE $1 + $3 - 1 END \
               WHERE kind = $2 RETURNING last_micros";
    let last: i64 = with_tx!(tx, conn => sqlx::query_scalar(sql)
        .bind(micros(now))
        .bind(kind_name(kind))
        .bind(i64::from(n.max(1)))
        .fetch_one(&mut **conn)
        .await)?;
    Ok(super::from_micros("registered_at", last - i64::from(n.max(1)) + 1)?)
}

/// Keeps the registration clock at or past `at`, so a rebuilt registry
/// goes on handing out later times.
pub(super) async fn raise_clock(tx: &mut Tx, kind: DeviceKind, at: DateTime<Utc>) -> Result<(), StorageError> {
    let sql = "UPDATE registry_clock SET last_micros = CASE WHEN last_micros < $1 THEN $1 ELSE last_micros END \
               WHERE kind = $2";
    with_tx!(tx, conn => sqlx::query(sql)
        .bind(micros(at))
        .bind(kind_name(kind))
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(())
}

fn kind_name(kind: DeviceKind) -> &'static str {
    match kind {
        DeviceKind::Gateway => "gateway",
        DeviceKind::Meter => "meter",
    }
}

/// Applies one registry event to the tables: the aggregate it concerns is
/// loaded, folded with the pure `apply`, and saved. Other events are
/// ignored.
pub async fn persist(tx: &mut Tx, event: &Payload) -> Result<(), StorageError> {
    match event {
        Payload::GatewayRegistered(e) => save_gateway(tx, None, gateway::apply(None, event)?.as_ref(), &e.id).await,
        Payload::GatewayUpdated(wm_proto::v1::GatewayUpdated { id, .. })
        | Payload::GatewayDeleted(wm_proto::v1::GatewayDeleted { id }) => {
            let (before, _) = load_gateway(tx, id).await?;
            let after = gateway::apply(before.clone(), event)?;
            super::credentials::persist(tx, event).await?;
            save_gateway(tx, before.as_ref(), after.as_ref(), id).await
        }
        Payload::GatewayCredentialIssued(_) | Payload::GatewayCredentialRevoked(_) => {
            super::credentials::persist(tx, event).await
        }
        Payload::MeterRegistered(e) => save_meter(tx, None, meter::apply(None, event)?.as_ref(), &e.id).await,
        Payload::MeterUpdated(wm_proto::v1::MeterUpdated { id, .. })
        | Payload::MeterDeleted(wm_proto::v1::MeterDeleted { id }) => {
            let (before, _) = load_meter(tx, id).await?;
            let after = meter::apply(before.clone(), event)?;
            save_meter(tx, before.as_ref(), after.as_ref(), id).await
        }
        _ => Ok(()),
    }
}

async fn save_gateway(
    tx: &mut Tx,
    before: Option<&gateway::Gateway>,
    after: Option<&gateway::Gateway>,
    id: &str,
) -> Result<(), StorageError> {
    identifiers::replace(tx, id, &before.map(gateway_identifiers), &after.map(gateway_identifiers)).await?;
    match (before, after) {
        (None, Some(g)) => {
            let sql = "INSERT INTO gateways (id, serial_number, device_name, imei, phone_number, ble_address, \
                       mac_address, longitude, latitude, registered_at, search_text, last_activity) \
                       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $10)";
            with_tx!(tx, conn => sqlx::query(sql)
                .bind(id)
                .bind(g.serial_number.as_str())
                .bind(&g.device_name)
                .bind(g.imei.as_str())
                .bind(g.phone_number.as_str())
                .bind(g.ble_address.as_str())
                .bind(g.mac_address.as_str())
                .bind(g.gps.map(|p| p.longitude()))
                .bind(g.gps.map(|p| p.latitude()))
                .bind(micros(g.registered_at))
                .bind(gateway_search_text(g))
                .execute(&mut **conn)
                .await
                .map(|r| r.rows_affected()))?;
            raise_clock(tx, DeviceKind::Gateway, g.registered_at).await?;
            count(tx, "gateways", 1).await
        }
        (Some(_), Some(g)) => {
            let sql = "UPDATE gateways SET phone_number = $2, longitude = $3, latitude = $4, search_text = $5 \
                       WHERE id = $1";
            with_tx!(tx, conn => sqlx::query(sql)
                .bind(id)
                .bind(g.phone_number.as_str())
                .bind(g.gps.map(|p| p.longitude()))
                .bind(g.gps.map(|p| p.latitude()))
                .bind(gateway_search_text(g))
                .execute(&mut **conn)
                .await
                .map(|r| r.rows_affected()))?;
            Ok(())
        }
        (Some(_), None) => delete(tx, "gateways", id).await,
        (None, None) => Ok(()),
    }
}

async fn save_meter(
    tx: &mut Tx,
    before: Option<&meter::Meter>,
    after: Option<&meter::Meter>,
    id: &str,
) -> Result<(), StorageError> {
    identifiers::replace(tx, id, &before.map(meter_identifiers), &after.map(meter_identifiers)).await?;
    match (before, after) {
        (None, Some(m)) => {
            let sql = "INSERT INTO meters (id, serial_number, device_name, ble_address, longitude, latitude, \
                       registered_at, search_text, last_activity) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $7)";
            with_tx!(tx, conn => sqlx::query(sql)
                .bind(id)
                .bind(m.serial_number.as_str())
                .bind(&m.device_name)
                .bind(m.ble_address.as_str())
                .bind(m.gps.map(|p| p.longitude()))
                .bind(m.gps.map(|p| p.latitude()))
                .bind(micros(m.registered_at))
                .bind(meter_search_text(m))
                .execute(&mut **conn)
                .await
                .map(|r| r.rows_affected()))?;
            raise_clock(tx, DeviceKind::Meter, m.registered_at).await?;
            count(tx, "meters", 1).await
        }
        (Some(_), Some(m)) => {
            let sql = "UPDATE meters SET longitude = $2, latitude = $3 WHERE id = $1";
            with_tx!(tx, conn => sqlx::query(sql)
                .bind(id)
                .bind(m.gps.map(|p| p.longitude()))
                .bind(m.gps.map(|p| p.latitude()))
                .execute(&mut **conn)
                .await
                .map(|r| r.rows_affected()))?;
            Ok(())
        }
        (Some(_), None) => delete(tx, "meters", id).await,
        (None, None) => Ok(()),
    }
}

async fn delete(tx: &mut Tx, table: &'static str, id: &str) -> Result<(), StorageError> {
    let sql = format!("DELETE FROM {table} WHERE id = $1");
    with_tx!(tx, conn => sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected()))?;
    count(tx, table, -1).await
}

/// Moves the maintained total of `name` by `by`.
pub(super) async fn count(tx: &mut Tx, name: &'static str, by: i64) -> Result<(), StorageError> {
    let sql = "UPDATE registry_counters SET value = value + $1 WHERE name = $2";
    with_tx!(tx, conn => sqlx::query(sql).bind(by).bind(name).execute(&mut **conn).await.map(|r| r.rows_affected()))?;
    Ok(())
}

pub(super) fn gateway_identifiers(g: &gateway::Gateway) -> Vec<(&'static str, String)> {
    vec![
        ("serialNumber", g.serial_number.to_string()),
        ("imei", g.imei.to_string()),
        ("phoneNumber", g.phone_number.to_string()),
        ("bleAddress", g.ble_address.to_string()),
        ("macAddress", g.mac_address.to_string()),
    ]
}

pub(super) fn meter_identifiers(m: &meter::Meter) -> Vec<(&'static str, String)> {
    vec![("serialNumber", m.serial_number.to_string()), ("bleAddress", m.ble_address.to_string())]
}

/// What a search matches a substring of: upper case, addresses without
/// colons.
pub(super) fn gateway_search_text(g: &gateway::Gateway) -> String {
    search_text(&[
        &g.device_name,
        g.serial_number.as_str(),
        g.imei.as_str(),
        g.phone_number.as_str(),
        g.ble_address.as_str(),
        g.mac_address.as_str(),
    ])
}

pub(super) fn meter_search_text(m: &meter::Meter) -> String {
    search_text(&[&m.device_name, m.serial_number.as_str(), m.ble_address.as_str()])
}

fn search_text(parts: &[&str]) -> String {
    parts.iter().map(|p| super::search::normalize(p)).collect::<Vec<_>>().join("|")
}

/// Forgets every device, its identifiers and state, and the counters and
/// clock they moved: before a rebuild from the registry's events.
pub async fn reset(tx: &mut Tx) -> Result<(), StorageError> {
    for sql in [
        "DELETE FROM gateways",
        "DELETE FROM meters",
        "DELETE FROM device_identifiers",
        "DELETE FROM gateway_credentials",
        "DELETE FROM meter_alerts",
        "DELETE FROM gateway_peripherals",
        "UPDATE registry_counters SET value = 0",
        "UPDATE registry_clock SET last_micros = 0",
    ] {
        execute!(tx, sql)?;
    }
    Ok(())
}
