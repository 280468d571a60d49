//! Stored gateways and meters as read back, registration and state columns
//! together.

use serde_json::json;
use wm_domain::GpsCoordinates;

use super::from_micros;
use crate::domain::{InvalidEvent, gateway::Gateway, meter::Meter, wire_parse};

pub const GATEWAY_COLUMNS: &str = "id, serial_number, device_name, imei, phone_number, ble_address, mac_address, \
     longitude, latitude, registered_at, lastseen, session_online, discovered_peripherals_count, records_count, \
     water_meters_count";

pub const METER_COLUMNS: &str = "id, serial_number, device_name, ble_address, longitude, latitude, registered_at, \
     lastseen, total_consumption_ml, critical, device_status, last_gateway_id, valve_command_id, valve_command_status";

#[derive(Clone, Debug, PartialEq)]
pub struct GatewayRow {
    pub id: String,
    pub serial_number: String,
    pub device_name: String,
    pub imei: String,
    pub phone_number: String,
    pub ble_address: String,
    pub mac_address: String,
    pub longitude: Option<f64>,
    pub latitude: Option<f64>,
    pub registered_at: i64,
    pub lastseen: Option<i64>,
    pub session_online: bool,
    pub discovered_peripherals_count: i64,
    pub records_count: i64,
    pub water_meters_count: i64,
}
wm_storage::from_row!(GatewayRow {
    id,
    serial_number,
    device_name,
    imei,
    phone_number,
    ble_address,
    mac_address,
    longitude,
    latitude,
    registered_at,
    lastseen,
    session_online,
    discovered_peripherals_count,
    records_count,
    water_meters_count
});

#[derive(Clone, Debug, PartialEq)]
pub struct MeterRow {
    pub id: String,
    pub serial_number: String,
    pub device_name: String,
    pub ble_address: String,
    pub longitude: Option<f64>,
    pub latitude: Option<f64>,
    pub registered_at: i64,
    pub lastseen: Option<i64>,
    pub total_consumption_ml: i64,
    pub critical: bool,
    pub device_status: String,
    pub last_gateway_id: Option<String>,
    pub valve_command_id: Option<String>,
    pub valve_command_status: Option<String>,
}
wm_storage::from_row!(MeterRow {
    id,
    serial_number,
    device_name,
    ble_address,
    longitude,
    latitude,
    registered_at,
    lastseen,
    total_consumption_ml,
    critical,
    device_status,
    last_gateway_id,
    valve_command_id,
    valve_command_status
});

fn gps(longitude: Option<f64>, latitude: Option<f64>) -> Result<Option<GpsCoordinates>, InvalidEvent> {
    match (longitude, latitude) {
        (Some(lon), Some(lat)) => GpsCoordinates::new(lon, lat)
            .map(Some)
            .map_err(|_| InvalidEvent { field: "gps", value: format!("{lon}, {lat}") }),
        _ => Ok(None),
    }
}

impl GatewayRow {
    /// The aggregate state this row holds.
    pub fn state(&self) -> Result<Gateway, InvalidEvent> {
        Ok(Gateway {
            id: wire_parse("id", &self.id)?,
            serial_number: wire_parse("serial_number", &self.serial_number)?,
            device_name: self.device_name.clone(),
            imei: wire_parse("imei", &self.imei)?,
            phone_number: wire_parse("phone_number", &self.phone_number)?,
            ble_address: wire_parse("ble_address", &self.ble_address)?,
            mac_address: wire_parse("mac_address", &self.mac_address)?,
            gps: gps(self.longitude, self.latitude)?,
            registered_at: from_micros("registered_at", self.registered_at)?,
        })
    }

    pub fn gps(&self) -> Option<GpsCoordinates> {
        gps(self.longitude, self.latitude).ok().flatten()
    }

    /// The registered and editable fields, for the audit trail.
    pub fn audit_json(&self) -> serde_json::Value {
        json!({
            "id": self.id, "serialNumber": self.serial_number, "deviceName": self.device_name, "imei": self.imei,
            "phoneNumber": self.phone_number, "bleAddress": self.ble_address, "macAddress": self.mac_address,
            "longitude": self.longitude, "latitude": self.latitude,
        })
    }
}

impl MeterRow {
    /// The aggregate state this row holds.
    pub fn state(&self) -> Result<Meter, InvalidEvent> {
        Ok(Meter {
            id: wire_parse("id", &self.id)?,
            serial_number: wire_parse("serial_number", &self.serial_number)?,
            device_name: self.device_name.clone(),
            ble_address: wire_parse("ble_address", &self.ble_address)?,
            gps: gps(self.longitude, self.latitude)?,
            registered_at: from_micros("registered_at", self.registered_at)?,
        })
    }

    pub fn gps(&self) -> Option<GpsCoordinates> {
        gps(self.longitude, self.latitude).ok().flatten()
    }

    /// The registered and editable fields, for the audit trail.
    pub fn audit_json(&self) -> serde_json::Value {
        json!({
            "id": self.id, "serialNumber": self.serial_number, "deviceName": self.device_name,
            "bleAddress": self.ble_address, "longitude": self.longitude, "latitude": self.latitude,
        })
    }
}
