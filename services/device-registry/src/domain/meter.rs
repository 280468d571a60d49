//! The water-meter aggregate.

use chrono::{DateTime, Utc};
use wm_domain::{BleAddress, DeviceId, DeviceKind, GpsCoordinates, SerialNumber};
use wm_proto::{
    Payload,
    v1::{MeterDeleted, MeterRegistered, MeterUpdated},
};

use super::{DomainError, InvalidEvent, wire};

/// A registered water meter, as its registration and edits left it.
#[derive(Clone, Debug, PartialEq)]
pub struct Meter {
    pub id: DeviceId,
    pub serial_number: SerialNumber,
    pub device_name: String,
    pub ble_address: BleAddress,
    pub gps: Option<GpsCoordinates>,
    pub registered_at: DateTime<Utc>,
}

/// What an operator gives to register a meter, already validated.
#[derive(Clone, Debug, PartialEq)]
pub struct NewMeter {
    pub serial_number: SerialNumber,
    pub ble_address: BleAddress,
    pub gps: Option<GpsCoordinates>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Register under a fresh `id` at `registered_at`, as for gateways.
    Register {
        id: DeviceId,
        registered_at: DateTime<Utc>,
        meter: NewMeter,
    },
    /// Move the meter; `None` changes nothing.
    Update {
        gps: Option<GpsCoordinates>,
    },
    Delete,
}

/// Decides `command` against `state`; `seen` as for gateways.
pub fn decide(state: Option<&Meter>, seen: bool, command: Command) -> Result<Vec<Payload>, DomainError> {
    match (state, command) {
        (_, Command::Register { id, registered_at, meter }) => Ok(vec![Payload::MeterRegistered(MeterRegistered {
            id: id.to_string(),
            device_name: DeviceKind::Meter.display_name(&meter.serial_number),
            serial_number: meter.serial_number.into_string(),
            ble_address: meter.ble_address.into_string(),
            gps: meter.gps.map(wire::gps),
            registered_at: Some(wm_proto::time::to_timestamp(registered_at)),
        })]),
        (None, _) => Err(DomainError::NotFound),
        (Some(current), Command::Update { gps }) => match gps.filter(|g| Some(*g) != current.gps) {
            Some(gps) => {
                Ok(vec![Payload::MeterUpdated(MeterUpdated { id: current.id.to_string(), gps: Some(wire::gps(gps)) })])
            }
            None => Ok(Vec::new()),
        },
        (Some(_), Command::Delete) if seen => Err(DomainError::Seen),
        (Some(current), Command::Delete) => {
            Ok(vec![Payload::MeterDeleted(MeterDeleted { id: current.id.to_string() })])
        }
    }
}

/// Folds one event into the state, as for gateways.
pub fn apply(state: Option<Meter>, event: &Payload) -> Result<Option<Meter>, InvalidEvent> {
    match event {
        Payload::MeterRegistered(e) => Ok(Some(Meter {
            id: wire::parse("id", &e.id)?,
            serial_number: wire::parse("serial_number", &e.serial_number)?,
            device_name: e.device_name.clone(),
            ble_address: wire::parse("ble_address", &e.ble_address)?,
            gps: e.gps.as_ref().map(wire::coordinates).transpose()?,
            registered_at: wire::time("registered_at", e.registered_at.as_ref())?,
        })),
        Payload::MeterUpdated(e) => {
            let Some(mut meter) = state else { return Ok(None) };
            if let Some(gps) = &e.gps {
                meter.gps = Some(wire::coordinates(gps)?);
            }
            Ok(Some(meter))
        }
        Payload::MeterDeleted(_) => Ok(None),
        _ => Ok(state),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registered() -> Vec<Payload> {
        let meter = NewMeter {
            serial_number: SerialNumber::parse("ZX98YW76VU").unwrap(),
            ble_address: BleAddress::parse("AA:BB:CC:DD:EE:03").unwrap(),
            gps: Some(GpsCoordinates::new(2.35, 48.85).unwrap()),
        };
        let at = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        decide(None, false, Command::Register { id: DeviceId::new(), registered_at: at, meter }).unwrap()
    }

    fn state(events: &[Payload]) -> Option<Meter> {
        events.iter().try_fold(None, apply).unwrap()
    }

    #[test]
    fn a_registered_meter_is_named_after_its_serial() {
        assert_eq!(state(&registered()).unwrap().device_name, "W-ZX98YW76VU");
    }

    #[test]
    fn moving_a_meter_to_where_it_is_emits_nothing() {
        let given = registered();
        let here = state(&given).unwrap().gps;
        assert_eq!(decide(state(&given).as_ref(), false, Command::Update { gps: here }), Ok(Vec::new()));
        let there = GpsCoordinates::new(-1.5, 47.2).ok();
        let moved = decide(state(&given).as_ref(), false, Command::Update { gps: there }).unwrap();
        let after = state(&[given, moved].concat()).unwrap();
        assert_eq!(after.gps, there);
    }

    #[test]
    fn a_seen_meter_is_not_deleted_and_a_missing_one_not_found() {
        let given = registered();
        assert_eq!(decide(state(&given).as_ref(), true, Command::Delete), Err(DomainError::Seen));
        assert_eq!(decide(None, false, Command::Delete), Err(DomainError::NotFound));
        let deleted = decide(state(&given).as_ref(), false, Command::Delete).unwrap();
        assert_eq!(state(&[given, deleted].concat()), None);
    }
}
