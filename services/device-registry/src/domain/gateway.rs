//! The gateway aggregate.

use chrono::{DateTime, Utc};
use wm_domain::{BleAddress, DeviceId, DeviceKind, GpsCoordinates, Imei, MacAddress, PhoneNumber, SerialNumber};
use wm_proto::{
    Payload,
    v1::{GatewayDeleted, GatewayRegistered, GatewayUpdated},
};

use super::{DomainError, InvalidEvent, wire};

/// A registered gateway, as its registration and edits left it.
#[derive(Clone, Debug, PartialEq)]
pub struct Gateway {
    pub id: DeviceId,
    pub serial_number: SerialNumber,
    pub device_name: String,
    pub imei: Imei,
    pub phone_number: PhoneNumber,
    pub ble_address: BleAddress,
    pub mac_address: MacAddress,
    pub gps: Option<GpsCoordinates>,
    pub registered_at: DateTime<Utc>,
}

/// What an operator gives to register a gateway, already validated.
#[derive(Clone, Debug, PartialEq)]
pub struct NewGateway {
    pub serial_number: SerialNumber,
    pub imei: Imei,
    pub phone_number: PhoneNumber,
    pub ble_address: BleAddress,
    pub mac_address: MacAddress,
    pub gps: Option<GpsCoordinates>,
}

/// The editable fields; `None` leaves a field as it is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GatewayChanges {
    pub phone_number: Option<PhoneNumber>,
    pub gps: Option<GpsCoordinates>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Register under `id`, at `registered_at` (both chosen by the caller:
    /// the id is fresh, the time strictly after the last registration).
    Register {
        id: DeviceId,
        registered_at: DateTime<Utc>,
        gateway: NewGateway,
    },
    Update(GatewayChanges),
    Delete,
}

/// Decides `command` against `state`. `seen` tells whether the gateway was
/// ever heard from (only an unseen gateway may be deleted). Registering an
/// id that exists is not checked here: ids are fresh.
pub fn decide(state: Option<&Gateway>, seen: bool, command: Command) -> Result<Vec<Payload>, DomainError> {
    match (state, command) {
        (_, Command::Register { id, registered_at, gateway }) => Ok(vec![registered(id, registered_at, gateway)]),
        (None, _) => Err(DomainError::NotFound),
        (Some(current), Command::Update(changes)) => {
            let phone_number = changes.phone_number.filter(|p| *p != current.phone_number);
            let gps = changes.gps.filter(|g| Some(*g) != current.gps);
            if phone_number.is_none() && gps.is_none() {
                return Ok(Vec::new());
            }
            Ok(vec![Payload::GatewayUpdated(GatewayUpdated {
                id: current.id.to_string(),
                phone_number: phone_number.map(PhoneNumber::into_string),
                gps: gps.map(wire::gps),
            })])
        }
        (Some(_), Command::Delete) if seen => Err(DomainError::Seen),
        (Some(current), Command::Delete) => {
            Ok(vec![Payload::GatewayDeleted(GatewayDeleted { id: current.id.to_string() })])
        }
    }
}

fn registered(id: DeviceId, registered_at: DateTime<Utc>, gateway: NewGateway) -> Payload {
    Payload::GatewayRegistered(GatewayRegistered {
        id: id.to_string(),
        device_name: DeviceKind::Gateway.display_name(&gateway.serial_number),
        serial_number: gateway.serial_number.into_string(),
        imei: gateway.imei.into_string(),
        phone_number: gateway.phone_number.into_string(),
        ble_address: gateway.ble_address.into_string(),
        mac_address: gateway.mac_address.into_string(),
        gps: gateway.gps.map(wire::gps),
        registered_at: Some(wm_proto::time::to_timestamp(registered_at)),
    })
}

/// Folds one event into the state. Events about other aggregates leave it
/// unchanged; an event that breaks the schema's promises is refused.
pub fn apply(state: Option<Gateway>, event: &Payload) -> Result<Option<Gateway>, InvalidEvent> {
    match event {
        Payload::GatewayRegistered(e) => Ok(Some(Gateway {
            id: wire::parse("id", &e.id)?,
            serial_number: wire::parse("serial_number", &e.serial_number)?,
            device_name: e.device_name.clone(),
            imei: wire::parse("imei", &e.imei)?,
            phone_number: wire::parse("phone_number", &e.phone_number)?,
            ble_address: wire::parse("ble_address", &e.ble_address)?,
            mac_address: wire::parse("mac_address", &e.mac_address)?,
            gps: e.gps.as_ref().map(wire::coordinates).transpose()?,
            registered_at: wire::time("registered_at", e.registered_at.as_ref())?,
        })),
        Payload::GatewayUpdated(e) => {
            let Some(mut gateway) = state else { return Ok(None) };
            if let Some(phone) = &e.phone_number {
                gateway.phone_number = wire::parse("phone_number", phone)?;
            }
            if let Some(gps) = &e.gps {
                gateway.gps = Some(wire::coordinates(gps)?);
            }
            Ok(Some(gateway))
        }
        Payload::GatewayDeleted(_) => Ok(None),
        _ => Ok(state),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_gateway() -> NewGateway {
        NewGateway {
            serial_number: SerialNumber::parse("ab12cd34ef").unwrap(),
            imei: Imei::parse("490154203237518").unwrap(),
            phone_number: PhoneNumber::parse("0612345678").unwrap(),
            ble_address: BleAddress::parse("aa:bb:cc:dd:ee:01").unwrap(),
            mac_address: MacAddress::parse("AA:BB:CC:DD:EE:02").unwrap(),
            gps: None,
        }
    }

    /// Given the events, when the command is decided, then these events.
    fn given_when(given: &[Payload], seen: bool, command: Command) -> Result<Vec<Payload>, DomainError> {
        let state = given.iter().try_fold(None, apply).unwrap();
        decide(state.as_ref(), seen, command)
    }

    fn registration() -> Vec<Payload> {
        let at = DateTime::from_timestamp(1_800_000_000, 1_000).unwrap();
        given_when(&[], false, Command::Register { id: DeviceId::new(), registered_at: at, gateway: new_gateway() })
            .unwrap()
    }

    #[test]
    fn registering_names_the_gateway_after_its_serial() {
        let events = registration();
        let state = apply(None, &events[0]).unwrap().unwrap();
        assert_eq!(state.device_name, "GTW-AB12CD34EF");
        assert_eq!(state.ble_address.as_str(), "AA:BB:CC:DD:EE:01");
        assert_eq!(state.registered_at.timestamp_subsec_micros(), 1);
    }

    #[test]
    fn an_update_carries_only_what_changed() {
        let given = registration();
        let same_phone = PhoneNumber::parse("0612345678").unwrap();
        let gps = GpsCoordinates::new(2.2945, 48.8584).unwrap();
        let changes = GatewayChanges { phone_number: Some(same_phone), gps: Some(gps) };
        let events = given_when(&given, false, Command::Update(changes)).unwrap();
        let [Payload::GatewayUpdated(update)] = events.as_slice() else { panic!("{events:?}") };
        assert_eq!(update.phone_number, None);
        assert_eq!(update.gps.as_ref().map(|g| g.latitude), Some(48.8584));
    }

    #[test]
    fn an_update_that_changes_nothing_emits_nothing() {
        let given = registration();
        let phone = PhoneNumber::parse("0612345678").unwrap();
        let changes = GatewayChanges { phone_number: Some(phone), gps: None };
        assert_eq!(given_when(&given, false, Command::Update(changes)), Ok(Vec::new()));
    }

    #[test]
    fn only_an_unseen_gateway_is_deleted() {
        let given = registration();
        assert_eq!(given_when(&given, true, Command::Delete), Err(DomainError::Seen));
        let events = given_when(&given, false, Command::Delete).unwrap();
        let state = apply(apply(None, &given[0]).unwrap(), &events[0]).unwrap();
        assert_eq!(state, None);
    }

    #[test]
    fn a_missing_gateway_cannot_change() {
        assert_eq!(given_when(&[], false, Command::Delete), Err(DomainError::NotFound));
        assert_eq!(given_when(&[], false, Command::Update(GatewayChanges::default())), Err(DomainError::NotFound));
    }
}
