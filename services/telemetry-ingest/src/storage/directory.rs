//! The registered gateways and meters, as ingest knows them from the
//! registry's events: what an uplink's serial and BLE address resolve to.

use std::collections::{HashMap, HashSet};
use wm_domain::{BleAddress, SerialNumber};
use wm_proto::Payload;

use wm_storage::{
    Db, StorageError, Tx,
    bulk::{self, Rows},
    execute,
    query::{self, Bind},
    with_tx,
};
use wm_uplink::MeterRef;

/// The ids of the gateways with these serials, by serial.
pub async fn gateways(tx: &mut Tx, serials: &HashSet<&str>) -> Result<HashMap<String, String>, StorageError> {
    let values = serials.iter().map(|s| Bind::from(*s)).collect();
    let rows: Vec<(String, String)> =
        bulk::fetch_in(tx, "SELECT serial_number, id FROM ingest_gateways", "serial_number", values).await?;
    Ok(rows.into_iter().collect())
}

/// The serial number of the gateway `id`, if it is registered.
pub async fn serial_of(tx: &mut Tx, id: &str) -> Result<Option<String>, StorageError> {
    let sql = "SELECT serial_number FROM ingest_gateways WHERE id = $1";
    Ok(with_tx!(tx, conn => sqlx::query_scalar(sql).bind(id).fetch_optional(&mut **conn).await)?)
}

/// The ids of the meters these references name.
pub async fn meters(tx: &mut Tx, meters: &HashSet<&MeterRef>) -> Result<HashMap<MeterRef, String>, StorageError> {
    let (mut ble, mut serial) = (Vec::new(), Vec::new());
    for meter in meters {
        match meter {
            MeterRef::Ble(address) => ble.push(Bind::from(address.as_str())),
            MeterRef::Serial(number) => serial.push(Bind::from(number.as_str())),
        }
    }
    let mut out = HashMap::new();
    let by_ble: Vec<(String, String)> =
        bulk::fetch_in(tx, "SELECT ble_address, id FROM ingest_meters", "ble_address", ble).await?;
    for (address, id) in by_ble {
        if let Ok(address) = BleAddress::parse(&address) {
            out.insert(MeterRef::Ble(address), id);
        }
    }
    let by_serial: Vec<(String, String)> =
        bulk::fetch_in(tx, "SELECT serial_number, id FROM ingest_meters", "serial_number", serial).await?;
    for (number, id) in by_serial {
        if let Ok(number) = SerialNumber::parse(&number) {
            out.insert(MeterRef::Serial(number), id);
        }
    }
    Ok(out)
}

/// The BLE address and display name of a meter, for commands and
/// notifications.
pub async fn meter_address(tx: &mut Tx, meter_id: &str) -> Result<Option<(BleAddress, String)>, StorageError> {
    let sql = "SELECT ble_address, device_name FROM ingest_meters WHERE id = $1";
    let row: Option<(String, String)> =
        with_tx!(tx, conn => sqlx::query_as(sql).bind(meter_id).fetch_optional(&mut **conn).await)?;
    Ok(row.and_then(|(ble, name)| BleAddress::parse(&ble).ok().map(|ble| (ble, name))))
}

/// Whether the meter is registered.
pub async fn is_meter(db: &Db, meter_id: &str) -> Result<bool, StorageError> {
    let sql = "SELECT COUNT(*) FROM ingest_meters WHERE id = $1";
    Ok(query::fetch_count(db, sql.to_owned(), vec![meter_id.into()]).await? > 0)
}

/// Applies one registry or auth event. Each topic arrives in one totally
/// ordered stream, so upserts and deletes by id converge.
pub async fn apply(tx: &mut Tx, event: &Payload) -> Result<(), StorageError> {
    super::credentials::apply(tx, event).await?;
    match event {
        Payload::GatewayRegistered(g) => {
            let sql = "INSERT INTO ingest_gateways (id, serial_number) VALUES ($1, $2) \
                       ON CONFLICT (id) DO UPDATE SET serial_number = excluded.serial_number";
            execute!(tx, sql, &g.id, &g.serial_number)?;
        }
        Payload::GatewayDeleted(g) => {
            execute!(tx, "DELETE FROM ingest_gateways WHERE id = $1", &g.id)?;
        }
        Payload::MeterRegistered(m) => {
            let sql = "INSERT INTO ingest_meters (id, serial_number, ble_address, device_name) VALUES ($1, $2, $3, $4) \
                       ON CONFLICT (id) DO UPDATE SET serial_number = excluded.serial_number, \
                       ble_address = excluded.ble_address, device_name = excluded.device_name";
            execute!(tx, sql, &m.id, &m.serial_number, &m.ble_address, &m.device_name)?;
        }
        Payload::MeterDeleted(m) => {
            execute!(tx, "DELETE FROM ingest_meters WHERE id = $1", &m.id)?;
        }
        Payload::UserCreated(u) => {
            let sql = "INSERT INTO ingest_users (user_id, username, role, active) VALUES ($1, $2, $3, TRUE) \
                       ON CONFLICT (user_id) DO UPDATE SET username = excluded.username, role = excluded.role";
            execute!(tx, sql, &u.user_id, &u.username, u.role().word())?;
        }
        Payload::UserRoleChanged(u) => {
            execute!(tx, "UPDATE ingest_users SET role = $1 WHERE user_id = $2", u.role().word(), &u.user_id)?;
        }
        Payload::UserDisabled(u) => {
            execute!(tx, "UPDATE ingest_users SET active = FALSE WHERE user_id = $1", &u.user_id)?;
        }
        _ => {}
    }
    Ok(())
}

/// Loads new registrations in a few statements (`COPY` on PostgreSQL):
/// `wmeter seed`.
pub async fn load(tx: &mut Tx, events: &[Payload]) -> Result<(), StorageError> {
    let (mut gateways, mut meters) = (Rows::new(2), Rows::new(4));
    for event in events {
        match event {
            Payload::GatewayRegistered(g) => gateways.push([(&g.id).into(), (&g.serial_number).into()]),
            Payload::MeterRegistered(m) => meters.push([
                (&m.id).into(),
                (&m.serial_number).into(),
                (&m.ble_address).into(),
                (&m.device_name).into(),
            ]),
            _ => {}
        }
    }
    bulk::copy(tx, "ingest_gateways", &["id", "serial_number"], gateways).await?;
    bulk::copy(tx, "ingest_meters", &["id", "serial_number", "ble_address", "device_name"], meters).await?;
    Ok(())
}

/// Forgets every device and user, before a rebuild.
pub async fn reset(tx: &mut Tx) -> Result<(), StorageError> {
    execute!(tx, "DELETE FROM ingest_gateways")?;
    execute!(tx, "DELETE FROM ingest_meters")?;
    execute!(tx, "DELETE FROM ingest_users")?;
    super::credentials::reset(tx).await
}
