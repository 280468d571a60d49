//! The network on a map (docs/map.md): devices counted in a grid of cells
//! at every level, so that a view of a million meters is a few hundred
//! clusters read from an index.
//!
//! A cell at `level` is `360 / 2^level` degrees of longitude and of
//! latitude. Levels [`COARSEST`] to [`FINEST`] are kept (`map_cells`),
//! rebuilt from the devices every [`REFRESH`] (or ten times as long as the
//! last rebuild took, if that is longer), with each device's health as of
//! then. A view finer than the finest level reads the devices themselves,
//! live.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::{state::RegistryState, storage};

pub const COARSEST: u32 = 2;
pub const FINEST: u32 = 16;
/// The cells a view is cut into across, about.
const ACROSS: f64 = 40.0;
/// The most clusters or markers one answer holds.
pub const MAX_ITEMS: usize = 2000;
/// How often the cells are rebuilt, at least.
pub const REFRESH: Duration = Duration::from_secs(60);

/// A view: west, south, east, north, in degrees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bbox {
    pub west: f64,
    pub south: f64,
    pub east: f64,
    pub north: f64,
}

impl Bbox {
    /// `w,s,e,n` (decimal numbers: digits, a point, digits), within the
    /// world, west of east and south of north.
    pub fn parse(text: &str) -> Result<Bbox, String> {
        let decimal = |n: &str| {
            let digits = n.strip_prefix('-').unwrap_or(n);
            let (whole, fraction) = digits.split_once('.').unwrap_or((digits, "0"));
            let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            (all_digits(whole) && all_digits(fraction)).then(|| n.parse::<f64>().ok()).flatten()
        };
        let numbers: Vec<f64> = text
            .split(',')
            .map(decimal)
            .collect::<Option<_>>()
            .ok_or_else(|| format!("{text:?} is not four numbers: west,south,east,north in degrees"))?;
        let [west, south, east, north] = numbers[..] else {
            return Err(format!("{text:?} is not four numbers: west,south,east,north in degrees"));
        };
        let in_world = |lon: f64, lat: f64| (-180.0..=180.0).contains(&lon) && (-90.0..=90.0).contains(&lat);
        if !in_world(west, south) || !in_world(east, north) {
            return Err("longitudes are from -180 to 180 and latitudes from -90 to 90".to_owned());
        }
        if west >= east || south >= north {
            return Err("west must be less than east, and south less than north".to_owned());
        }
        Ok(Bbox { west, south, east, north })
    }

    /// The level whose cells cut the view into about [`ACROSS`] columns,
    /// and no more than [`MAX_ITEMS`] cells; above [`FINEST`] when the view
    /// is finer than the finest cells.
    pub fn level(&self) -> u32 {
        let width = (self.east - self.west).max(self.north - self.south).max(1e-9);
        let mut level = (ACROSS * 360.0 / width).log2().floor().max(f64::from(COARSEST)) as u32;
        while level > COARSEST && self.cells(level.min(FINEST)) > MAX_ITEMS as f64 {
            level -= 1;
        }
        level
    }

    /// How many cells of `level` the view touches, at most.
    fn cells(&self, level: u32) -> f64 {
        let ((x0, y0), (x1, y1)) = self.corners(level);
        ((x1 - x0 + 1) * (y1 - y0 + 1)) as f64
    }

    /// The cells of its south-west and north-east corners at `level`.
    pub fn corners(&self, level: u32) -> ((i64, i64), (i64, i64)) {
        (cell(self.west, self.south, level), cell(self.east, self.north, level))
    }
}

/// Cells per degree at `level`.
pub fn scale(level: u32) -> f64 {
    f64::from(1u32 << level.min(30)) / 360.0
}

/// The cell holding a point at `level` (as the storage computes it).
pub fn cell(lon: f64, lat: f64, level: u32) -> (i64, i64) {
    (((lon + 180.0) * scale(level)).floor() as i64, ((lat + 90.0) * scale(level)).floor() as i64)
}

/// The cell's bounds: west, south, east, north.
pub fn bounds(x: i64, y: i64, level: u32) -> [f64; 4] {
    let size = 1.0 / scale(level);
    [x as f64 * size - 180.0, y as f64 * size - 90.0, (x + 1) as f64 * size - 180.0, (y + 1) as f64 * size - 90.0]
}

/// The devices of one cell, and their health.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub level: u32,
    pub x: i64,
    pub y: i64,
    pub meters: i64,
    pub gateways: i64,
    /// The sums of the devices' longitudes and latitudes: a cluster is drawn
    /// at their mean.
    pub lon_sum: f64,
    pub lat_sum: f64,
    pub lost: i64,
    pub down: i64,
    pub critical: i64,
    /// Devices lost, down or critical, each once.
    pub unhealthy: i64,
    /// Where its devices are: west, south, east, north.
    pub extent: [f64; 4],
    /// One of its devices (the only one, when it holds one): id, kind, name.
    pub sample: (String, String, String),
}

impl Cell {
    pub fn devices(&self) -> i64 {
        self.meters + self.gateways
    }

    /// Adds `other`'s devices.
    fn merge(&mut self, other: &Cell) {
        self.meters += other.meters;
        self.gateways += other.gateways;
        self.lon_sum += other.lon_sum;
        self.lat_sum += other.lat_sum;
        self.lost += other.lost;
        self.down += other.down;
        self.critical += other.critical;
        self.unhealthy += other.unhealthy;
        let [w, s, e, n] = other.extent;
        self.extent = [self.extent[0].min(w), self.extent[1].min(s), self.extent[2].max(e), self.extent[3].max(n)];
        self.sample = self.sample.clone().min(other.sample.clone());
    }
}

/// Every level's cells, from the finest level's: each coarser cell merges
/// the four below it.
pub fn levels(finest: Vec<Cell>) -> Vec<Cell> {
    let mut all = finest;
    let mut level_start = 0;
    for level in (COARSEST..FINEST).rev() {
        let mut merged: std::collections::BTreeMap<(i64, i64), Cell> = std::collections::BTreeMap::new();
        for c in &all[level_start..] {
            let key = (c.x.div_euclid(2), c.y.div_euclid(2));
            match merged.get_mut(&key) {
                Some(parent) => parent.merge(c),
                None => {
                    merged.insert(key, Cell { level, x: key.0, y: key.1, ..c.clone() });
                }
            }
        }
        level_start = all.len();
        all.extend(merged.into_values());
    }
    all
}

/// Rebuilds the cells now, and then every [`REFRESH`] (or ten times as long
/// as the last rebuild took), until `stop`.
pub async fn run(state: actix_web::web::Data<RegistryState>, every: Duration, stop: CancellationToken) {
    loop {
        let started = std::time::Instant::now();
        let lost = (state.lost_before(wm_domain::DeviceKind::Meter), state.lost_before(wm_domain::DeviceKind::Gateway));
        match storage::map::rebuild(state.db(), lost, state.now().timestamp_micros()).await {
            Ok(cells) => tracing::debug!(cells, took = ?started.elapsed(), "map cells rebuilt"),
            Err(e) => tracing::warn!(error = ?e, "cannot rebuild the map's cells yet, retrying"),
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(every.max(started.elapsed() * 10)) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_is_four_numbers_in_the_world_in_order() {
        let b = Bbox::parse("4.7,45.7,4.95,45.82").unwrap();
        assert_eq!((b.west, b.north), (4.7, 45.82));
        let bad = ["4.7,45.7,4.95", "a,b,c,d", "4.95,45.7,4.7,45.82", "4.7,45.8,4.95,45.7", "-181,0,0,1", "0,0,1,91"];
        for bad in bad.into_iter().chain(["1e1,0,20,1", " 4,45,5,46", "4.,45,5,46", "inf,0,1,1", ""]) {
            assert!(Bbox::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_view_is_cut_into_about_forty_columns_and_never_more_than_two_thousand_cells() {
        let city = Bbox::parse("4.7,45.7,4.95,45.82").unwrap();
        assert_eq!(city.level(), 15);
        let ((x0, _), (x1, _)) = city.corners(city.level());
        assert!((20..=60).contains(&(x1 - x0 + 1)), "{x0}..{x1}");
        let world = Bbox::parse("-180,-90,180,90").unwrap();
        assert!(world.cells(world.level()) <= MAX_ITEMS as f64 && world.level() >= COARSEST);
        let street = Bbox::parse("4.83,45.76,4.84,45.765").unwrap();
        assert!(street.level() > FINEST, "finer than the finest cells: the devices themselves");
        let tall = Bbox::parse("4.0,-60,4.5,60").unwrap();
        assert!(tall.cells(tall.level().min(FINEST)) <= MAX_ITEMS as f64);
    }

    fn one(x: i64, y: i64, id: &str, lost: i64) -> Cell {
        let [w, s, _, _] = bounds(x, y, FINEST);
        Cell {
            level: FINEST,
            x,
            y,
            meters: 1,
            gateways: 0,
            lon_sum: w,
            lat_sum: s,
            lost,
            down: 0,
            critical: 0,
            unhealthy: lost,
            extent: [w, s, w, s],
            sample: (id.into(), "meter".into(), format!("W-{id}")),
        }
    }

    #[test]
    fn coarser_levels_merge_the_four_cells_below_each() {
        let finest = vec![one(100, 200, "b", 1), one(101, 201, "a", 0), one(103, 200, "c", 0)];
        let all = levels(finest);
        let at = |level: u32| all.iter().filter(|c| c.level == level).collect::<Vec<_>>();
        let fifteen = at(15);
        assert_eq!(fifteen.iter().map(|c| (c.x, c.y, c.devices())).collect::<Vec<_>>(), [(50, 100, 2), (51, 100, 1)]);
        assert_eq!((fifteen[0].lost, fifteen[0].unhealthy, fifteen[0].sample.0.as_str()), (1, 1, "a"));
        let top = at(COARSEST);
        assert_eq!((top.len(), top[0].devices(), top[0].extent[0]), (1, 3, bounds(100, 200, FINEST)[0]));
        assert_eq!(all.len(), 3 + 2 + (COARSEST..=14).count(), "one cell a level once they meet");
    }

    #[test]
    fn a_point_is_in_its_cell() {
        for level in [COARSEST, 9, FINEST] {
            let (x, y) = cell(4.8357, 45.764, level);
            let [w, s, e, n] = bounds(x, y, level);
            assert!((w..e).contains(&4.8357) && (s..n).contains(&45.764), "{level}");
        }
    }
}
