//! A simulated network: gateways, each with its meters, generated from a
//! seed so that a simulator run and the registration of its devices agree.

/// Where the demo network stands: around Lyon.
const CENTRE: (f64, f64) = (4.8357, 45.7640);

#[derive(Clone, Debug, PartialEq)]
pub struct SimGateway {
    pub serial: String,
    pub imei: String,
    pub phone_number: String,
    pub ble_address: String,
    pub mac_address: String,
    /// `(longitude, latitude)`.
    pub gps: (f64, f64),
    pub meters: Vec<SimMeter>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SimMeter {
    pub serial: String,
    pub ble_address: String,
    pub gps: (f64, f64),
}

/// `gateways` gateways sharing `meters` meters round-robin; the same seed
/// gives the same network.
pub fn fleet(gateways: u32, meters: u32, seed: u8) -> Vec<SimGateway> {
    let mut fleet: Vec<SimGateway> = (0..gateways).map(|i| gateway(i, gateways, seed)).collect();
    if fleet.is_empty() {
        return fleet;
    }
    for i in 0..meters {
        let owner = &mut fleet[(i % gateways) as usize];
        let spread = f64::from(i / gateways + 1) * 0.0006;
        let angle = f64::from(i) * 2.399_963;
        let gps = (owner.gps.0 + spread * angle.cos(), owner.gps.1 + spread * angle.sin() * 0.7);
        owner.meters.push(SimMeter { serial: format!("SM{seed:02X}{i:06}"), ble_address: address(0x5B, seed, i), gps });
    }
    fleet
}

fn gateway(i: u32, of: u32, seed: u8) -> SimGateway {
    let side = f64::from(of).sqrt().ceil().max(1.0);
    let (row, col) = ((f64::from(i) / side).floor(), f64::from(i) % side);
    SimGateway {
        serial: format!("SG{seed:02X}{i:06}"),
        imei: format!("35{seed:03}{i:010}"),
        phone_number: format!("07{:02}{i:06}", seed % 100),
        ble_address: address(0x5A, seed, i),
        mac_address: address(0x5C, seed, i),
        gps: (CENTRE.0 + (col - side / 2.0) * 0.012, CENTRE.1 + (row - side / 2.0) * 0.008),
        meters: Vec::new(),
    }
}

/// `PP:SS:NN:NN:NN:01`.
fn address(prefix: u8, seed: u8, i: u32) -> String {
    let [_, a, b, c] = i.to_be_bytes();
    format!("{prefix:02X}:{seed:02X}:{a:02X}:{b:02X}:{c:02X}:01")
}

#[cfg(test)]
mod tests {
    use wm_domain::{BleAddress, GpsCoordinates, Imei, MacAddress, PhoneNumber, SerialNumber};

    use super::*;

    #[test]
    fn every_generated_identifier_is_valid_and_unique() {
        let fleet = fleet(10, 95, 7);
        assert_eq!(fleet.iter().map(|g| g.meters.len()).sum::<usize>(), 95);
        let mut seen = std::collections::HashSet::new();
        for g in &fleet {
            assert!(SerialNumber::parse(&g.serial).is_ok() && Imei::parse(&g.imei).is_ok(), "{g:?}");
            assert!(PhoneNumber::parse(&g.phone_number).is_ok() && MacAddress::parse(&g.mac_address).is_ok(), "{g:?}");
            assert!(GpsCoordinates::new(g.gps.0, g.gps.1).is_ok());
            for id in [&g.serial, &g.imei, &g.phone_number, &g.ble_address, &g.mac_address] {
                assert!(seen.insert(id.clone()), "{id} twice");
            }
            for m in &g.meters {
                assert!(SerialNumber::parse(&m.serial).is_ok() && BleAddress::parse(&m.ble_address).is_ok(), "{m:?}");
                assert!(seen.insert(m.serial.clone()) && seen.insert(m.ble_address.clone()));
            }
        }
        assert_eq!(fleet, super::fleet(10, 95, 7), "the same seed, the same network");
    }
}
