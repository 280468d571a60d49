//! Search (DESIGN §6): a case-insensitive substring of a device's name,
//! serial, IMEI, phone or address (colons optional), or a `lon,lat` point;
//! with a radius, the devices near each match join the results. Exact
//! matches come first, then the rest, then nearer devices before farther.
//! A whole identifier (a serial with or without its `GTW-` or `W-`, a BLE or
//! MAC address with or without colons, an IMEI, a phone number) is looked up
//! by equality, so its device is found first however many others hold the
//! term as a substring (those are capped at the newest [`MAX_RESULTS`]).

use std::collections::HashMap;

use wm_domain::{BleAddress, DeviceKind, GpsCoordinates, Imei, MacAddress, PhoneNumber, SerialNumber};
use wm_storage::{Db, StorageError};

use crate::storage::{
    identifiers::{self, Identifiers},
    lists::by_id,
    rows::{GatewayRow, MeterRow},
    search::{around, containing, distance_m, normalize},
};

/// Results at most (DESIGN §6).
pub const MAX_RESULTS: usize = 100;
/// Matches whose neighbourhoods are searched, at most.
const MAX_ANCHORS: usize = 20;

/// A device of either kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Found {
    Gateway(GatewayRow),
    Meter(MeterRow),
}

impl Found {
    fn id(&self) -> &str {
        match self {
            Found::Gateway(g) => &g.id,
            Found::Meter(m) => &m.id,
        }
    }

    fn gps(&self) -> Option<GpsCoordinates> {
        match self {
            Found::Gateway(g) => g.gps(),
            Found::Meter(m) => m.gps(),
        }
    }

    /// Whether one of its names or identifiers is exactly `needle`.
    fn is_exact(&self, needle: &str) -> bool {
        let terms: Vec<&str> = match self {
            Found::Gateway(g) => {
                vec![&g.device_name, &g.serial_number, &g.imei, &g.phone_number, &g.ble_address, &g.mac_address]
            }
            Found::Meter(m) => vec![&m.device_name, &m.serial_number, &m.ble_address],
        };
        terms.into_iter().any(|t| normalize(t) == needle)
    }
}

/// The devices `q` finds, with the neighbours within `radius_m`.
pub async fn search(db: &Db, q: &str, radius_m: f64) -> Result<Vec<Found>, StorageError> {
    let q = q.trim();
    if q.is_empty() {
        return Ok(Vec::new());
    }
    if let Ok(point) = GpsCoordinates::parse(q) {
        return Ok(nearest(near(db, point, radius_m).await?, &[point], radius_m));
    }
    let needle = normalize(q);
    let cap = MAX_RESULTS as i64;
    let mut found = holding_whole(db, q).await?;
    let whole: Vec<String> = found.iter().map(|f| f.id().to_owned()).collect();
    let gateways = containing::<GatewayRow>(db, &needle, cap).await?.into_iter().map(Found::Gateway);
    let meters = containing::<MeterRow>(db, &needle, cap).await?.into_iter().map(Found::Meter);
    found.extend(gateways.chain(meters).filter(|f| !whole.iter().any(|id| id == f.id())));
    found.sort_by_key(|f| !f.is_exact(&needle));
    found.truncate(MAX_RESULTS);
    if radius_m > 0.0 && found.len() < MAX_RESULTS {
        let anchors: Vec<GpsCoordinates> = found.iter().filter_map(Found::gps).take(MAX_ANCHORS).collect();
        let mut neighbours = Vec::new();
        for anchor in &anchors {
            neighbours.extend(near(db, *anchor, radius_m).await?);
        }
        let seen: Vec<String> = found.iter().map(|f| f.id().to_owned()).collect();
        neighbours.retain(|n| !seen.iter().any(|id| id == n.id()));
        found.extend(nearest(neighbours, &anchors, radius_m));
        found.truncate(MAX_RESULTS);
    }
    Ok(found)
}

/// The devices that hold `q` as a whole identifier.
async fn holding_whole(db: &Db, q: &str) -> Result<Vec<Found>, StorageError> {
    let mut found = Vec::new();
    for id in identifiers::holders(db, &whole_identifiers(q)).await? {
        if let Some(gateway) = by_id::<GatewayRow>(db, &id).await? {
            found.push(Found::Gateway(gateway));
        } else if let Some(meter) = by_id::<MeterRow>(db, &id).await? {
            found.push(Found::Meter(meter));
        }
    }
    Ok(found)
}

/// What `q` is as a whole identifier, in the registry's canonical forms.
fn whole_identifiers(q: &str) -> Identifiers {
    let mut wanted: Identifiers = Vec::new();
    for kind in [DeviceKind::Gateway, DeviceKind::Meter] {
        if let Ok(serial) = SerialNumber::parse_with_prefix(q, kind) {
            wanted.push(("serialNumber", serial.to_string()));
        }
    }
    let address = with_colons(q);
    if let Ok(ble) = BleAddress::parse(&address) {
        wanted.push(("bleAddress", ble.to_string()));
    }
    if let Ok(mac) = MacAddress::parse(&address) {
        wanted.push(("macAddress", mac.to_string()));
    }
    if let Ok(imei) = Imei::parse(q) {
        wanted.push(("imei", imei.to_string()));
    }
    if let Ok(phone) = PhoneNumber::parse(q) {
        wanted.push(("phoneNumber", phone.to_string()));
    }
    wanted.sort();
    wanted.dedup();
    wanted
}

/// Twelve hex digits as an address's six colon-separated pairs; anything
/// else as it is.
fn with_colons(q: &str) -> String {
    if q.len() == 12 && q.bytes().all(|b| b.is_ascii_hexdigit()) {
        q.as_bytes().chunks(2).map(|pair| String::from_utf8_lossy(pair)).collect::<Vec<_>>().join(":")
    } else {
        q.to_owned()
    }
}

/// The devices of both kinds in the box around `point`.
async fn near(db: &Db, point: GpsCoordinates, radius_m: f64) -> Result<Vec<Found>, StorageError> {
    let cap = (MAX_RESULTS * 10) as i64;
    let mut found: Vec<Found> =
        around::<GatewayRow>(db, point, radius_m, cap).await?.into_iter().map(Found::Gateway).collect();
    found.extend(around::<MeterRow>(db, point, radius_m, cap).await?.into_iter().map(Found::Meter));
    Ok(found)
}

/// `candidates` within `radius_m` of one of `anchors`, each once, nearest
/// first.
fn nearest(candidates: Vec<Found>, anchors: &[GpsCoordinates], radius_m: f64) -> Vec<Found> {
    let mut best: HashMap<String, (f64, Found)> = HashMap::new();
    for candidate in candidates {
        let Some(at) = candidate.gps() else { continue };
        let distance = anchors.iter().map(|a| distance_m(*a, at)).fold(f64::INFINITY, f64::min);
        if distance > radius_m {
            continue;
        }
        let id = candidate.id().to_owned();
        if best.get(&id).is_none_or(|(d, _)| distance < *d) {
            best.insert(id, (distance, candidate));
        }
    }
    let mut ranked: Vec<(f64, Found)> = best.into_values().collect();
    ranked.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.id().cmp(b.1.id())));
    ranked.into_iter().map(|(_, f)| f).take(MAX_RESULTS).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn looked_up(q: &str) -> Vec<String> {
        whole_identifiers(q).into_iter().map(|(field, value)| format!("{field}={value}")).collect()
    }

    #[test]
    fn a_term_is_looked_up_as_every_identifier_it_could_be_whole() {
        assert_eq!(looked_up("gtw-ab12345678"), ["serialNumber=AB12345678"]);
        assert_eq!(looked_up("W-ab12345678"), ["serialNumber=AB12345678"]);
        let address = ["bleAddress=AA:BB:CC:DD:EE:FF", "macAddress=AA:BB:CC:DD:EE:FF"];
        assert_eq!(looked_up("aabbccddeeff"), address, "without colons");
        assert_eq!(looked_up("aa:bb:cc:dd:ee:ff"), address);
        assert_eq!(looked_up("0612345678"), ["phoneNumber=0612345678", "serialNumber=0612345678"]);
        assert_eq!(looked_up("351234567890123"), ["imei=351234567890123"]);
        for partial in ["abc", "AB1234567", "aabbccddeef", "gtw-", ""] {
            assert!(looked_up(partial).is_empty(), "{partial}");
        }
    }
}
