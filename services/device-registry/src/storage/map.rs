//! The map's cells (`crate::map`): the finest counted from the devices in
//! one read, the coarser merged from them, all written at once; and the
//! views read back, or the devices themselves for a view finer than the
//! finest cells.

use wm_storage::{
    Backend, Db, StorageError,
    bulk::{self, Rows},
    execute,
    query::{self, Bind},
};

use crate::map::{self, Cell, FINEST};

/// A device's cell of the finest level, along `axis` (`longitude` or
/// `latitude`), as SQL: written exactly as the position indexes of
/// migration 5 are, so that a view of devices reads them.
fn cell_sql(backend: Backend, axis: &str) -> String {
    let offset = if axis == "longitude" { "180.0" } else { "90.0" };
    let scale = map::scale(FINEST);
    match backend {
        Backend::Postgres => format!("CAST(floor(({axis} + {offset}) * {scale}) AS BIGINT)"),
        Backend::Sqlite => format!("CAST(({axis} + {offset}) * {scale} AS INTEGER)"),
    }
}

/// The devices with a position, counted per cell of the finest level, with
/// their health as of `(meters, gateways)` lost before those times (µs).
async fn finest(db: &Db, (meter_lost, gateway_lost): (i64, i64)) -> Result<Vec<Cell>, StorageError> {
    let (x, y) = (cell_sql(db.backend(), "longitude"), cell_sql(db.backend(), "latitude"));
    let sql = format!(
        "SELECT x, y, SUM(meter) AS meters, COUNT(*) - SUM(meter) AS gateways, SUM(longitude) AS lon_sum, \
         SUM(latitude) AS lat_sum, SUM(lost) AS lost, SUM(down) AS down, SUM(critical) AS critical, \
         SUM(CASE WHEN lost + down + critical > 0 THEN 1 ELSE 0 END) AS unhealthy, \
         MIN(longitude) AS min_lon, MIN(latitude) AS min_lat, MAX(longitude) AS max_lon, MAX(latitude) AS max_lat, \
         MIN(id) AS sample_id, MIN(kind) AS sample_kind, MIN(device_name) AS sample_name FROM ( \
           SELECT {x} AS x, {y} AS y, 1 AS meter, longitude, latitude, id, 'meter' AS kind, device_name, \
             CASE WHEN last_activity < $1 THEN 1 ELSE 0 END AS lost, \
             CASE WHEN device_status = 'Down' THEN 1 ELSE 0 END AS down, CASE WHEN critical THEN 1 ELSE 0 END AS critical \
           FROM meters WHERE longitude IS NOT NULL AND latitude IS NOT NULL \
           UNION ALL \
           SELECT {x}, {y}, 0, longitude, latitude, id, 'gateway', device_name, \
             CASE WHEN last_activity < $2 THEN 1 ELSE 0 END, 0, 0 \
           FROM gateways WHERE longitude IS NOT NULL AND latitude IS NOT NULL \
         ) d GROUP BY x, y"
    );
    let binds = vec![Bind::Int(meter_lost), Bind::Int(gateway_lost)];
    let rows: Vec<Row> = query::fetch_all(db, sql, binds).await?;
    Ok(rows.into_iter().map(|r| r.cell(FINEST)).collect())
}

/// A cell as stored and read.
struct Row {
    x: i64,
    y: i64,
    meters: i64,
    gateways: i64,
    lon_sum: f64,
    lat_sum: f64,
    lost: i64,
    down: i64,
    critical: i64,
    unhealthy: i64,
    min_lon: f64,
    min_lat: f64,
    max_lon: f64,
    max_lat: f64,
    sample_id: String,
    sample_kind: String,
    sample_name: String,
}
wm_storage::from_row!(Row {
    x,
    y,
    meters,
    gateways,
    lon_sum,
    lat_sum,
    lost,
    down,
    critical,
    unhealthy,
    min_lon,
    min_lat,
    max_lon,
    max_lat,
    sample_id,
    sample_kind,
    sample_name
});

impl Row {
    fn cell(self, level: u32) -> Cell {
        Cell {
            level,
            x: self.x,
            y: self.y,
            meters: self.meters,
            gateways: self.gateways,
            lon_sum: self.lon_sum,
            lat_sum: self.lat_sum,
            lost: self.lost,
            down: self.down,
            critical: self.critical,
            unhealthy: self.unhealthy,
            extent: [self.min_lon, self.min_lat, self.max_lon, self.max_lat],
            sample: (self.sample_id, self.sample_kind, self.sample_name),
        }
    }
}

const COLUMNS: &str = "x, y, meters, gateways, lon_sum, lat_sum, lost, down, critical, unhealthy, min_lon, min_lat, \
                       max_lon, max_lat, sample_id, sample_kind, sample_name";

/// Rebuilds every level's cells; returns how many there are. The devices
/// are counted outside the write, which is short.
pub async fn rebuild(db: &Db, lost: (i64, i64), now_us: i64) -> Result<usize, StorageError> {
    let cells = map::levels(finest(db, lost).await?);
    let mut rows = Rows::new(18);
    for c in &cells {
        let [min_lon, min_lat, max_lon, max_lat] = c.extent;
        rows.push([
            Bind::Int(i64::from(c.level)),
            Bind::Int(c.x),
            Bind::Int(c.y),
            Bind::Int(c.meters),
            Bind::Int(c.gateways),
            Bind::Real(c.lon_sum),
            Bind::Real(c.lat_sum),
            Bind::Int(c.lost),
            Bind::Int(c.down),
            Bind::Int(c.critical),
            Bind::Int(c.unhealthy),
            Bind::Real(min_lon),
            Bind::Real(min_lat),
            Bind::Real(max_lon),
            Bind::Real(max_lat),
            c.sample.0.as_str().into(),
            c.sample.1.as_str().into(),
            c.sample.2.as_str().into(),
        ]);
    }
    let mut tx = db.begin_write().await?;
    execute!(&mut tx, "DELETE FROM map_cells")?;
    if !rows.is_empty() {
        bulk::execute(&mut tx, &format!("INSERT INTO map_cells (level, {COLUMNS})"), "", rows).await?;
    }
    let sql = "INSERT INTO map_refreshed (id, at) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET at = excluded.at";
    execute!(&mut tx, sql, now_us)?;
    tx.commit().await?;
    Ok(cells.len())
}

/// The cells of `level` from the south-west corner to the north-east one,
/// and when they were counted (µs), if ever.
pub async fn cells(
    db: &Db,
    level: u32,
    ((x0, y0), (x1, y1)): ((i64, i64), (i64, i64)),
) -> Result<(Vec<Cell>, Option<i64>), StorageError> {
    let sql =
        format!("SELECT {COLUMNS} FROM map_cells WHERE level = $1 AND y BETWEEN $2 AND $3 AND x BETWEEN $4 AND $5");
    let binds = [i64::from(level), y0, y1, x0, x1].map(Bind::Int).to_vec();
    let rows: Vec<Row> = query::fetch_all(db, sql, binds).await?;
    let at: Option<(i64,)> = query::fetch_optional(db, "SELECT at FROM map_refreshed".to_owned(), Vec::new()).await?;
    Ok((rows.into_iter().map(|r| r.cell(level)).collect(), at.map(|(at,)| at)))
}

/// Where the network is: the extent of every device with a position (from
/// the coarsest cells), and how many there are.
pub async fn extent(db: &Db) -> Result<Option<([f64; 4], i64)>, StorageError> {
    let sql = "SELECT MIN(min_lon) AS w, MIN(min_lat) AS s, MAX(max_lon) AS e, MAX(max_lat) AS n, \
               CAST(SUM(meters + gateways) AS BIGINT) AS devices FROM map_cells WHERE level = $1";
    struct Extent {
        w: Option<f64>,
        s: Option<f64>,
        e: Option<f64>,
        n: Option<f64>,
        devices: Option<i64>,
    }
    wm_storage::from_row!(Extent { w, s, e, n, devices });
    let row: Option<Extent> =
        query::fetch_optional(db, sql.to_owned(), vec![Bind::Int(i64::from(map::COARSEST))]).await?;
    Ok(row.and_then(|x| Some(([x.w?, x.s?, x.e?, x.n?], x.devices?))))
}

/// A device on the map: id, `meter` or `gateway`, name, longitude,
/// latitude, critical, down, last activity (µs).
pub type DeviceRow = (String, String, String, f64, f64, bool, bool, i64);

/// Up to `limit` devices inside `bbox`, live: found through the cells of
/// the finest level that the view touches, by the position indexes. Each
/// row of cells is its own index range (`IN`): with a range of rows, the
/// index would read every device of those rows across the whole network.
pub async fn devices(db: &Db, bbox: &map::Bbox, limit: usize) -> Result<Vec<DeviceRow>, StorageError> {
    let (x, y) = (cell_sql(db.backend(), "longitude"), cell_sql(db.backend(), "latitude"));
    let ((x0, y0), (x1, y1)) = bbox.corners(FINEST);
    let mut binds = vec![
        Bind::Int(x0),
        Bind::Int(x1),
        Bind::Real(bbox.south),
        Bind::Real(bbox.north),
        Bind::Real(bbox.west),
        Bind::Real(bbox.east),
        Bind::Int(i64::try_from(limit).unwrap_or(i64::MAX)),
    ];
    // A view this close spans a few rows; a wider one (never asked) reads
    // its rows as one range.
    let rows = if y1 - y0 < MAX_ROWS {
        let first = binds.len() + 1;
        binds.extend((y0..=y1).map(Bind::Int));
        let placeholders: Vec<String> = (first..first + (y1 - y0 + 1) as usize).map(|i| format!("${i}")).collect();
        format!("{y} IN ({})", placeholders.join(", "))
    } else {
        binds.extend([Bind::Int(y0), Bind::Int(y1)]);
        format!("{y} BETWEEN ${} AND ${}", binds.len() - 1, binds.len())
    };
    let inside =
        format!("{rows} AND {x} BETWEEN $1 AND $2 AND latitude BETWEEN $3 AND $4 AND longitude BETWEEN $5 AND $6");
    let sql = format!(
        "SELECT id, 'meter', device_name, longitude, latitude, critical, device_status = 'Down', last_activity \
         FROM meters WHERE {inside} \
         UNION ALL \
         SELECT id, 'gateway', device_name, longitude, latitude, FALSE, FALSE, last_activity \
         FROM gateways WHERE {inside} LIMIT $7"
    );
    query::fetch_all(db, sql, binds).await
}

/// The most rows of cells a view of devices reads one by one.
const MAX_ROWS: i64 = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cell_sql_is_the_position_indexes_expression() {
        // Migration 5 spells the scale out: an index on an expression serves
        // only a query that writes it the same.
        assert_eq!(cell_sql(Backend::Sqlite, "latitude"), "CAST((latitude + 90.0) * 182.04444444444445 AS INTEGER)");
        assert_eq!(
            cell_sql(Backend::Postgres, "longitude"),
            "CAST(floor((longitude + 180.0) * 182.04444444444445) AS BIGINT)"
        );
    }
}
