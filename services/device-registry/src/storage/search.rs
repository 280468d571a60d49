//! The two searches the registry's search is made of: a substring of a
//! device's names and identifiers, and the devices near a point (an indexed
//! bounding box, then the exact great-circle distance, on both databases).

use sqlx::FromRow;
use wm_domain::GpsCoordinates;
use wm_storage::{
    Db, StorageError,
    query::{Bind, fetch_all, like_literal},
};

use super::lists::Table;
use crate::domain::{gateway, meter};

/// The mean radius of the Earth, in metres.
const EARTH_RADIUS_M: f64 = 6_371_008.8;
/// Metres per degree of latitude.
const METRES_PER_DEGREE: f64 = 111_320.0;
/// The shortest suffix the index keeps (migration 8).
const SHORTEST_SUFFIX: usize = 3;
/// Above this many suffixes starting with a term, it is common: reading
/// devices newest first finds a page of its holders sooner than the index
/// does (at most `cap` × devices ÷ this many rows read, since a device
/// holds a few of those suffixes at most).
const COMMON: i64 = 5_000;
/// Greater than any character of a search text: a term's suffixes are
/// those from the term up to the term followed by this.
const LAST_CHAR: char = '\u{10FFFF}';

/// How a search term and the stored search text are compared: upper case,
/// without colons, so `aa:bb` finds `AABB` and the reverse.
pub fn normalize(s: &str) -> String {
    s.trim().chars().filter(|c| *c != ':').flat_map(char::to_uppercase).collect()
}

/// Up to `cap` devices whose search text holds `needle` (normalized), newest
/// first. The index of suffixes (`{table}_suffixes`, migration 8) finds
/// them: the suffixes that start with the term are one index range, and
/// their devices are the term's holders. A term shorter than a suffix, or
/// one that more than [`COMMON`] suffixes start with, is looked for in the
/// devices newest first instead.
pub async fn containing<T: Table>(db: &Db, needle: &str, cap: i64) -> Result<Vec<T>, StorageError> {
    let (columns, table) = (T::COLUMNS, T::TABLE);
    if needle.chars().count() >= SHORTEST_SUFFIX {
        // One statement: the range is read once (up to one past `COMMON`),
        // its newest `cap` devices are fetched by their unique
        // `registered_at`, and each row carries the range's size. The
        // bounds are sub-selects, so PostgreSQL cannot see them when it
        // plans: every execution has the same estimate, and it keeps one
        // generic plan instead of planning each search anew, which took
        // longer than running it (docs/performance.md §3). The limits are
        // constants for the same reason: `LIMIT $n` would be estimated as a
        // tenth of the range, and the generic plan would read every device.
        // `+registered_at`: sort what the range found, rather than walk
        // every device newest first.
        let sql = format!(
            "WITH hits AS MATERIALIZED (SELECT registered_at FROM {table}_suffixes \
             WHERE suffix >= (SELECT $1) AND suffix < (SELECT $2) LIMIT {limit}) \
             SELECT {columns}, (SELECT count(*) FROM hits) AS entries FROM {table} WHERE registered_at IN \
             (SELECT DISTINCT registered_at FROM hits ORDER BY registered_at DESC LIMIT {cap}) \
             ORDER BY +registered_at DESC",
            limit = COMMON + 1
        );
        let binds = vec![Bind::Text(needle.to_owned()), Bind::Text(format!("{needle}{LAST_CHAR}"))];
        let found: Vec<Counted<T>> = fetch_all(db, sql, binds).await?;
        // None found is none held: every entry has its device.
        if found.first().is_none_or(|first| first.entries <= COMMON) {
            return Ok(found.into_iter().map(|c| c.row).collect());
        }
    }
    let pattern = format!("%{}%", like_literal(needle));
    let sql = format!(
        "SELECT {columns} FROM {table} WHERE search_text LIKE $1 ESCAPE '\\' ORDER BY registered_at DESC LIMIT $2"
    );
    fetch_all(db, sql, vec![Bind::Text(pattern), Bind::Int(cap)]).await
}

/// A row found through the index, with the size of the range that found it.
struct Counted<T> {
    row: T,
    entries: i64,
}

impl<'r, R, T> FromRow<'r, R> for Counted<T>
where
    R: sqlx::Row,
    T: FromRow<'r, R>,
    i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    &'static str: sqlx::ColumnIndex<R>,
{
    fn from_row(row: &'r R) -> Result<Self, sqlx::Error> {
        Ok(Self { row: T::from_row(row)?, entries: row.try_get("entries")? })
    }
}

/// Up to `cap` devices in the box around `center` that holds every point
/// within `radius_m` (callers keep those truly within with [`distance_m`]).
pub async fn around<T: Table>(
    db: &Db,
    center: GpsCoordinates,
    radius_m: f64,
    cap: i64,
) -> Result<Vec<T>, StorageError> {
    let dlat = radius_m / METRES_PER_DEGREE;
    let cos = center.latitude().to_radians().cos().abs().max(1e-6);
    let dlon = (radius_m / (METRES_PER_DEGREE * cos)).min(180.0);
    let sql = format!(
        "SELECT {} FROM {} WHERE latitude BETWEEN $1 AND $2 AND longitude BETWEEN $3 AND $4 LIMIT $5",
        T::COLUMNS,
        T::TABLE
    );
    let binds = vec![
        Bind::Real(center.latitude() - dlat),
        Bind::Real(center.latitude() + dlat),
        Bind::Real(center.longitude() - dlon),
        Bind::Real(center.longitude() + dlon),
        Bind::Int(cap),
    ];
    fetch_all(db, sql, binds).await
}

/// The great-circle (haversine) distance between two points, in metres.
pub fn distance_m(a: GpsCoordinates, b: GpsCoordinates) -> f64 {
    let (lat1, lat2) = (a.latitude().to_radians(), b.latitude().to_radians());
    let dlat = lat2 - lat1;
    let dlon = (b.longitude() - a.longitude()).to_radians();
    let h = (dlat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (dlon / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_M * h.sqrt().min(1.0).asin()
}

/// What a search matches a substring of: upper case, addresses without
/// colons.
pub(super) fn gateway_search_text(g: &gateway::Gateway) -> String {
    search_text(&[
        &g.device_name,
        g.serial_number.as_str(),
        g.imei.as_str(),
        g.phone_number.as_str(),
        g.ble_address.as_str(),
        g.mac_address.as_str(),
    ])
}

pub(super) fn meter_search_text(m: &meter::Meter) -> String {
    search_text(&[&m.device_name, m.serial_number.as_str(), m.ble_address.as_str()])
}

fn search_text(parts: &[&str]) -> String {
    parts.iter().map(|p| normalize(p)).collect::<Vec<_>>().join("|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_are_compared_upper_case_without_colons() {
        assert_eq!(normalize(" aa:bb:cc "), "AABBCC");
        assert_eq!(normalize("gtw-ab12"), "GTW-AB12");
    }

    #[test]
    fn the_distance_from_paris_to_london_is_about_344_km() {
        let paris = GpsCoordinates::new(2.3522, 48.8566).unwrap();
        let london = GpsCoordinates::new(-0.1276, 51.5072).unwrap();
        let km = distance_m(paris, london) / 1000.0;
        assert!((343.0..345.0).contains(&km), "{km}");
        assert!(distance_m(paris, paris) < 1e-6);
    }

    #[test]
    fn a_box_degree_is_about_111_km() {
        let a = GpsCoordinates::new(0.0, 0.0).unwrap();
        let b = GpsCoordinates::new(0.0, 1.0).unwrap();
        assert!((distance_m(a, b) - METRES_PER_DEGREE).abs() < 300.0);
    }
}
