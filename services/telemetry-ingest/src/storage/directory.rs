//! The registered gateways and meters, as ingest knows them from the
//! registry's events: what an uplink's serial and BLE address resolve to.

use wm_domain::{BleAddress, SerialNumber};
use wm_proto::Payload;
use wm_storage::{Tx, with_tx};

use super::execute;
use crate::uplink::MeterRef;

/// The id of the gateway with this serial.
pub async fn gateway(tx: &mut Tx, serial: &SerialNumber) -> Result<Option<String>, sqlx::Error> {
    let sql = "SELECT id FROM ingest_gateways WHERE serial_number = $1";
    with_tx!(tx, conn => sqlx::query_scalar(sql).bind(serial.as_str()).fetch_optional(&mut **conn).await)
}

/// The id of the meter an uplink names.
pub async fn meter(tx: &mut Tx, meter: &MeterRef) -> Result<Option<String>, sqlx::Error> {
    let (sql, value) = match meter {
        MeterRef::Ble(ble) => ("SELECT id FROM ingest_meters WHERE ble_address = $1", ble.as_str()),
        MeterRef::Serial(serial) => ("SELECT id FROM ingest_meters WHERE serial_number = $1", serial.as_str()),
    };
    with_tx!(tx, conn => sqlx::query_scalar(sql).bind(value).fetch_optional(&mut **conn).await)
}

/// The BLE address and display name of a meter, for commands and
/// notifications.
pub async fn meter_address(tx: &mut Tx, meter_id: &str) -> Result<Option<(BleAddress, String)>, sqlx::Error> {
    let sql = "SELECT ble_address, device_name FROM ingest_meters WHERE id = $1";
    let row: Option<(String, String)> =
        with_tx!(tx, conn => sqlx::query_as(sql).bind(meter_id).fetch_optional(&mut **conn).await)?;
    Ok(row.and_then(|(ble, name)| BleAddress::parse(&ble).ok().map(|ble| (ble, name))))
}

/// Applies one registry event. Registry events arrive in one totally
/// ordered stream, so upserts and deletes by id converge.
pub async fn apply(tx: &mut Tx, event: &Payload) -> Result<(), sqlx::Error> {
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
        _ => {}
    }
    Ok(())
}

/// Forgets every device, before a rebuild.
pub async fn reset(tx: &mut Tx) -> Result<(), sqlx::Error> {
    execute!(tx, "DELETE FROM ingest_gateways")?;
    execute!(tx, "DELETE FROM ingest_meters")?;
    Ok(())
}
