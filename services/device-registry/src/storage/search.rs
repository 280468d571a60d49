//! The two searches the registry's search is made of: a substring of a
//! device's names and identifiers, and the devices near a point (an indexed
//! bounding box, then the exact great-circle distance, on both databases).

use wm_domain::GpsCoordinates;
use wm_storage::{
    Backend, Db, StorageError,
    query::{Bind, fetch_all, like_literal},
};

use super::{
    lists::Table,
    trigrams::{self, Plan},
};

/// The mean radius of the Earth, in metres.
const EARTH_RADIUS_M: f64 = 6_371_008.8;
/// Metres per degree of latitude.
const METRES_PER_DEGREE: f64 = 111_320.0;
/// The order and page of a substring search: on what was found
/// (`+registered_at` keeps the database from walking the whole
/// `registered_at` index instead).
const NEWEST_FIRST: &str = "ORDER BY +registered_at DESC LIMIT $2";

/// How a search term and the stored search text are compared: upper case,
/// without colons, so `aa:bb` finds `AABB` and the reverse.
pub fn normalize(s: &str) -> String {
    s.trim().chars().filter(|c| *c != ':').flat_map(char::to_uppercase).collect()
}

/// Up to `cap` devices whose search text holds `needle` (normalized), newest
/// first. A trigram index finds the rows (FTS5 `trigram` on SQLite,
/// migration 3; `pg_trgm` on PostgreSQL), through the term's rarest
/// trigrams when they narrow enough ([`trigrams`]), each row then checked
/// for the whole term.
pub async fn containing<T: Table>(db: &Db, needle: &str, cap: i64) -> Result<Vec<T>, StorageError> {
    let (columns, table) = (T::COLUMNS, T::TABLE);
    // A term of three characters or more is a substring match for the
    // trigram indexes; a shorter one has no trigram to look up.
    if needle.chars().count() < 3 {
        return like_whole(db, columns, table, needle, cap).await;
    }
    let fts = |check: &str| {
        format!(
            "SELECT {columns} FROM {table} WHERE rowid IN \
             (SELECT rowid FROM {table}_search WHERE {table}_search MATCH $1){check} {NEWEST_FIRST}"
        )
    };
    let (sql, binds) = match (db.backend(), trigrams::plan(db, table, needle).await?) {
        (Backend::Sqlite, Plan::Rarest(grams)) => {
            let all: Vec<String> = grams.iter().map(|g| fts_string(g)).collect();
            let binds = vec![Bind::Text(all.join(" AND ")), Bind::Int(cap), Bind::Text(needle.to_owned())];
            (fts(" AND instr(search_text, $3) > 0"), binds)
        }
        (Backend::Sqlite, Plan::Whole) => (fts(""), vec![Bind::Text(fts_string(needle)), Bind::Int(cap)]),
        (Backend::Postgres, Plan::Rarest(grams)) => {
            // One `LIKE` per trigram: pg_trgm reads those trigrams' posting
            // lists only, not the term's common ones.
            let likes: String = (0..grams.len()).map(|i| format!("search_text LIKE ${} AND ", i + 3)).collect();
            let sql = format!("SELECT {columns} FROM {table} WHERE {likes}strpos(search_text, $1) > 0 {NEWEST_FIRST}");
            let mut binds = vec![Bind::Text(needle.to_owned()), Bind::Int(cap)];
            binds.extend(grams.into_iter().map(|g| Bind::Text(format!("%{g}%"))));
            (sql, binds)
        }
        (Backend::Postgres, Plan::Whole) => return like_whole(db, columns, table, needle, cap).await,
    };
    fetch_all(db, sql, binds).await
}

/// The rows whose search text holds `needle`, by `LIKE`: through `pg_trgm`'s
/// index on PostgreSQL, a scan on SQLite (a term too short for its index).
async fn like_whole<T: Table>(
    db: &Db,
    columns: &str,
    table: &str,
    needle: &str,
    cap: i64,
) -> Result<Vec<T>, StorageError> {
    let pattern = format!("%{}%", like_literal(needle));
    let sql = format!("SELECT {columns} FROM {table} WHERE search_text LIKE $1 ESCAPE '\\' {NEWEST_FIRST}");
    fetch_all(db, sql, vec![Bind::Text(pattern), Bind::Int(cap)]).await
}

/// An FTS5 string: in double quotes, a quote doubled.
fn fts_string(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
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
