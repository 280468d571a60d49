//! Search (DESIGN §6): a case-insensitive substring of a device's name,
//! serial, IMEI, phone or address (colons optional), or a `lon,lat` point;
//! with a radius, the devices near each match join the results. Exact
//! matches come first, then the rest, then nearer devices before farther.

use std::collections::HashMap;

use wm_domain::GpsCoordinates;
use wm_storage::{Db, StorageError};

use crate::storage::{
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
    let mut found: Vec<Found> =
        containing::<GatewayRow>(db, &needle, cap).await?.into_iter().map(Found::Gateway).collect();
    found.extend(containing::<MeterRow>(db, &needle, cap).await?.into_iter().map(Found::Meter));
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
