//! Request bodies, validated field by field with the spec's messages (§5),
//! so a form learns every wrong field at once. Unknown fields are refused.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;
use wm_domain::{
    ADDRESS_MESSAGE, BleAddress, EDIT_PHONE_NUMBER_MESSAGE, GPS_MESSAGE, GpsCoordinates, IMEI_MESSAGE, Imei,
    METER_BLE_ADDRESS_MESSAGE, METER_SERIAL_NUMBER_MESSAGE, MacAddress, PHONE_NUMBER_MESSAGE, PhoneNumber,
    SERIAL_NUMBER_MESSAGE, SerialNumber,
};

use super::schemas;
use crate::{
    domain::{gateway::GatewayChanges, gateway::NewGateway, meter::NewMeter},
    error::RegistryError,
};

/// `POST /api/proxy/gateways/`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RegisterGateway {
    /// 10 letters or digits.
    #[schema(value_type = String, required, pattern = "^[0-9A-Za-z]{10}$", example = "AB12CD34EF")]
    serial_number: Option<Value>,
    /// 15 digits.
    #[schema(value_type = String, required, pattern = "^[0-9]{15}$", example = "490154203237518")]
    imei: Option<Value>,
    /// 10 digits.
    #[schema(value_type = String, required, pattern = "^[0-9]{10}$", example = "0612345678")]
    phone_number: Option<Value>,
    /// `XX:XX:XX:XX:XX:XX`.
    #[schema(value_type = String, required, pattern = "^[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}$", example = "AA:BB:CC:DD:EE:01")]
    ble_address: Option<Value>,
    /// `XX:XX:XX:XX:XX:XX`.
    #[schema(value_type = String, required, pattern = "^[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}$", example = "AA:BB:CC:DD:EE:02")]
    mac_address: Option<Value>,
    #[schema(schema_with = schemas::gps)]
    gps_coordinates: Option<Value>,
}

/// `POST /api/proxy/wmeters/`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RegisterMeter {
    /// 10 letters or digits.
    #[schema(value_type = String, required, pattern = "^[0-9A-Za-z]{10}$", example = "ZX98YW76VU")]
    serial_number: Option<Value>,
    /// `XX:XX:XX:XX:XX:XX`.
    #[schema(value_type = String, required, pattern = "^[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}$", example = "AA:BB:CC:DD:EE:03")]
    ble_address: Option<Value>,
    #[schema(schema_with = schemas::gps)]
    gps_coordinates: Option<Value>,
}

/// `PATCH /api/proxy/gateways/{id}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PatchGateway {
    /// 10 digits; absent or null leaves it.
    #[schema(value_type = Option<String>, pattern = "^[0-9]{10}$", example = "0698765432")]
    phone_number: Option<Value>,
    #[schema(schema_with = schemas::gps)]
    gps_coordinates: Option<Value>,
}

/// `PATCH /api/proxy/wmeters/{id}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PatchMeter {
    #[schema(schema_with = schemas::gps)]
    gps_coordinates: Option<Value>,
}

/// Collects each field's error, so all are reported together.
#[derive(Default)]
struct Fields(BTreeMap<String, String>);

impl Fields {
    /// `value` parsed as a `T` from a JSON string, or the field's message.
    fn text<T, E>(
        &mut self,
        name: &str,
        value: Option<Value>,
        parse: fn(&str) -> Result<T, E>,
        message: &str,
    ) -> Option<T> {
        let parsed = match value {
            Some(Value::String(s)) => parse(&s).ok(),
            _ => None,
        };
        if parsed.is_none() {
            self.0.insert(name.to_owned(), message.to_owned());
        }
        parsed
    }

    /// Optional coordinates: absent, null or "" is none; otherwise
    /// `[lon, lat]` or `"lon,lat"`.
    fn gps(&mut self, value: Option<Value>) -> Option<GpsCoordinates> {
        let parsed = match value {
            None | Some(Value::Null) => return None,
            Some(Value::String(s)) if s.trim().is_empty() => return None,
            Some(value) => serde_json::from_value::<GpsCoordinates>(value).ok(),
        };
        if parsed.is_none() {
            self.0.insert("gpsCoordinates".to_owned(), GPS_MESSAGE.to_owned());
        }
        parsed
    }

    fn finish<T>(self, value: Option<T>) -> Result<T, RegistryError> {
        match value {
            Some(value) if self.0.is_empty() => Ok(value),
            _ => Err(RegistryError::Invalid(self.0)),
        }
    }
}

impl RegisterGateway {
    pub fn validate(self) -> Result<NewGateway, RegistryError> {
        let mut f = Fields::default();
        let serial_number = f.text("serialNumber", self.serial_number, SerialNumber::parse, SERIAL_NUMBER_MESSAGE);
        let imei = f.text("imei", self.imei, Imei::parse, IMEI_MESSAGE);
        let phone_number = f.text("phoneNumber", self.phone_number, PhoneNumber::parse, PHONE_NUMBER_MESSAGE);
        let ble_address = f.text("bleAddress", self.ble_address, BleAddress::parse, ADDRESS_MESSAGE);
        let mac_address = f.text("macAddress", self.mac_address, MacAddress::parse, ADDRESS_MESSAGE);
        let gps = f.gps(self.gps_coordinates);
        let gateway = (|| {
            Some(NewGateway {
                serial_number: serial_number?,
                imei: imei?,
                phone_number: phone_number?,
                ble_address: ble_address?,
                mac_address: mac_address?,
                gps,
            })
        })();
        f.finish(gateway)
    }
}

impl RegisterMeter {
    pub fn validate(self) -> Result<NewMeter, RegistryError> {
        let mut f = Fields::default();
        let serial = f.text("serialNumber", self.serial_number, SerialNumber::parse, METER_SERIAL_NUMBER_MESSAGE);
        let ble = f.text("bleAddress", self.ble_address, BleAddress::parse, METER_BLE_ADDRESS_MESSAGE);
        let gps = f.gps(self.gps_coordinates);
        let meter = serial.zip(ble).map(|(serial_number, ble_address)| NewMeter { serial_number, ble_address, gps });
        f.finish(meter)
    }
}

impl PatchGateway {
    pub fn validate(self) -> Result<GatewayChanges, RegistryError> {
        let mut f = Fields::default();
        let phone_number = match self.phone_number {
            None | Some(Value::Null) => None,
            phone => f.text("phoneNumber", phone, PhoneNumber::parse, EDIT_PHONE_NUMBER_MESSAGE),
        };
        let gps = f.gps(self.gps_coordinates);
        f.finish(Some(GatewayChanges { phone_number, gps }))
    }
}

impl PatchMeter {
    pub fn validate(self) -> Result<Option<GpsCoordinates>, RegistryError> {
        let mut f = Fields::default();
        let gps = f.gps(self.gps_coordinates);
        f.finish(Some(gps))
    }
}
