//! Writing the registration side of gateways and meters: the folded
//! aggregate state is saved, with its identifiers claimed and the totals
//! kept (a new device through [`super::registrations`], which also hands
//! out `registeredAt`). Actions and the rebuild from events both go
//! through [`persist`].

use wm_domain::DeviceKind;
use wm_proto::Payload;
use wm_storage::{StorageError, Tx, execute, with_tx};

use super::{
    identifiers::{self, gateway_identifiers, meter_identifiers},
    lists::Table,
    registrations::{self, count},
    rows::{GatewayRow, MeterRow},
    search::gateway_search_text,
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

/// Applies one registry event to the tables: the aggregate it concerns is
/// loaded, folded with the pure `apply`, and saved. Other events are
/// ignored.
pub async fn persist(tx: &mut Tx, event: &Payload) -> Result<(), StorageError> {
    match event {
        Payload::GatewayRegistered(_) | Payload::MeterRegistered(_) => {
            registrations::register(tx, std::slice::from_ref(event)).await
        }
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
        // A registration is written by `registrations::register`; a change
        // to a device that is not there writes nothing.
        (None, _) => Ok(()),
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
        // A registration is written by `registrations::register`; a change
        // to a device that is not there writes nothing.
        (None, _) => Ok(()),
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
