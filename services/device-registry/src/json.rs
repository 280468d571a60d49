//! The devices as the API shows them, with the spec's field names (spec §3).

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use wm_domain::iso_micros;

use crate::{
    settings::DeviceSettings,
    storage::rows::{GatewayRow, MeterRow},
};

/// A gateway (spec §3).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GatewayJson {
    #[serde(rename = "_id")]
    #[schema(example = "6740a1b2c3d4e5f601234567")]
    pub id: String,
    pub device_name: String,
    pub serial_number: String,
    pub imei: String,
    pub ble_address: String,
    pub mac_address: String,
    pub phone_number: String,
    /// `[longitude, latitude]`, or null.
    #[schema(value_type = Option<Vec<f64>>, example = json!([2.294481, 48.85837]))]
    pub gps_coordinates: Option<[f64; 2]>,
    pub lastseen: Option<String>,
    pub registered_at: String,
    pub is_online: bool,
    pub discovered_peripherals_count: i64,
    pub records_count: i64,
    pub water_meters_count: i64,
}

/// A water meter (spec §3).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MeterJson {
    #[serde(rename = "_id")]
    #[schema(example = "6740a1b2c3d4e5f6abcdef01")]
    pub id: String,
    pub device_name: String,
    pub serial_number: String,
    pub ble_address: String,
    #[schema(value_type = Option<Vec<f64>>)]
    pub gps_coordinates: Option<[f64; 2]>,
    pub lastseen: Option<String>,
    pub registered_at: String,
    /// Litres.
    pub total_consumption: f64,
    pub critical_state: bool,
    /// `Up`, or `Down` once a confirmed shutdown switched it off.
    pub device_status: String,
    pub last_gateway_id: Option<String>,
    /// The latest valve command sent to the meter, and how far it got.
    pub valve_command: Option<ValveCommand>,
}

/// A valve command's delivery.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ValveCommand {
    pub command_id: String,
    /// `pending`, `sent`, `acked` or `failed`.
    #[schema(example = "acked")]
    pub status: String,
}

/// A device of either kind, as search results mix them.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(untagged)]
pub enum DeviceJson {
    Gateway(GatewayJson),
    Meter(MeterJson),
}

impl GatewayJson {
    /// Online while its MQTT session is up, or while it was seen within the
    /// online window before `now`.
    pub fn new(row: GatewayRow, now: DateTime<Utc>, settings: &DeviceSettings) -> Self {
        let window_start = (now - settings.gateway_online_window()).timestamp_micros();
        Self {
            is_online: row.session_online || row.lastseen.is_some_and(|seen| seen >= window_start),
            gps_coordinates: row.gps().map(Into::into),
            lastseen: row.lastseen.map(iso_micros),
            registered_at: iso_micros(row.registered_at),
            id: row.id,
            device_name: row.device_name,
            serial_number: row.serial_number,
            imei: row.imei,
            ble_address: row.ble_address,
            mac_address: row.mac_address,
            phone_number: row.phone_number,
            discovered_peripherals_count: row.discovered_peripherals_count,
            records_count: row.records_count,
            water_meters_count: row.water_meters_count,
        }
    }
}

impl From<MeterRow> for MeterJson {
    fn from(row: MeterRow) -> Self {
        #[expect(clippy::cast_precision_loss, reason = "a total below 2^53 ml (9 billion m³) is exact")]
        let litres = row.total_consumption_ml as f64 / 1000.0;
        Self {
            gps_coordinates: row.gps().map(Into::into),
            lastseen: row.lastseen.map(iso_micros),
            registered_at: iso_micros(row.registered_at),
            total_consumption: litres,
            critical_state: row.critical,
            id: row.id,
            device_name: row.device_name,
            serial_number: row.serial_number,
            ble_address: row.ble_address,
            device_status: row.device_status,
            last_gateway_id: row.last_gateway_id,
            valve_command: row
                .valve_command_id
                .zip(row.valve_command_status)
                .map(|(command_id, status)| ValveCommand { command_id, status }),
        }
    }
}

/// A stored row shown as the API's JSON.
pub trait Show {
    type Json: Serialize;
    fn show(self, now: DateTime<Utc>, settings: &DeviceSettings) -> Self::Json;
}

impl Show for GatewayRow {
    type Json = GatewayJson;

    fn show(self, now: DateTime<Utc>, settings: &DeviceSettings) -> GatewayJson {
        GatewayJson::new(self, now, settings)
    }
}

impl Show for MeterRow {
    type Json = MeterJson;

    fn show(self, _now: DateTime<Utc>, _settings: &DeviceSettings) -> MeterJson {
        self.into()
    }
}
