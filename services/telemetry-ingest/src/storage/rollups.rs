//! The consumption rollups (`domain::rollup`): readings claimed once, their
//! sums added to the buckets, and the series the charts and exports read;
//! and a gateway's traffic, counted from its activity.

use std::collections::HashSet;

use wm_storage::{
    Db, StorageError, Tx,
    bulk::{self, Rows},
    execute,
    query::{self, Bind},
};

use crate::domain::rollup::Increments;

/// Records that the reading events `event_ids` are in the rollups, and
/// returns those that were not already: the others were delivered twice.
pub async fn claim(tx: &mut Tx, event_ids: &[&str], now_us: i64) -> Result<HashSet<String>, StorageError> {
    let mut rows = Rows::new(2);
    event_ids.iter().for_each(|id| rows.push([(*id).into(), Bind::Int(now_us)]));
    let head = "INSERT INTO rollup_claims (event_id, claimed_at)";
    let claimed: Vec<(String,)> = bulk::fetch(tx, head, " ON CONFLICT DO NOTHING RETURNING event_id", rows).await?;
    Ok(claimed.into_iter().map(|(id,)| id).collect())
}

/// Adds `rows` (the key columns, then volume and readings) to `table`'s
/// buckets, which `key` (its primary key's columns) names.
async fn upsert(tx: &mut Tx, table: &str, key: &str, rows: Rows) -> Result<(), StorageError> {
    if rows.is_empty() {
        return Ok(());
    }
    let head = format!("INSERT INTO {table} ({key}, volume_ml, readings)");
    let tail = format!(
        " ON CONFLICT ({key}) DO UPDATE SET volume_ml = {table}.volume_ml + excluded.volume_ml, \
         readings = {table}.readings + excluded.readings"
    );
    bulk::execute(tx, &head, &tail, rows).await?;
    Ok(())
}

/// Adds a batch's increments to the rollups: one statement per table.
pub async fn add(tx: &mut Tx, increments: &Increments) -> Result<(), StorageError> {
    let keyed = [
        ("meter_hourly", "meter_id, bucket", &increments.meter_hour),
        ("meter_daily", "meter_id, bucket", &increments.meter_day),
        ("gateway_daily", "gateway_id, bucket", &increments.gateway_day),
    ];
    for (table, key, sums) in keyed {
        let mut rows = Rows::new(4);
        for ((id, bucket), sum) in sums {
            rows.push([id.into(), Bind::Int(*bucket), Bind::Int(sum.volume_ml), Bind::Int(sum.readings)]);
        }
        upsert(tx, table, key, rows).await?;
    }
    let mut rows = Rows::new(3);
    for (bucket, sum) in &increments.network_day {
        rows.push([Bind::Int(*bucket), Bind::Int(sum.volume_ml), Bind::Int(sum.readings)]);
    }
    upsert(tx, "network_daily", "bucket", rows).await?;
    let mut rows = Rows::new(3);
    for (meter, sum) in &increments.meter_total {
        rows.push([meter.into(), Bind::Int(sum.volume_ml), Bind::Int(sum.readings)]);
    }
    upsert(tx, "meter_totals", "meter_id", rows).await
}

/// Empties the rollups before a rebuild.
pub async fn reset(tx: &mut Tx) -> Result<(), StorageError> {
    let tables = ["rollup_claims", "meter_hourly", "meter_daily", "gateway_daily", "network_daily", "meter_totals"];
    for table in tables {
        execute!(tx, sqlx::AssertSqlSafe(format!("DELETE FROM {table}")))?;
    }
    Ok(())
}

/// Whose consumption a series sums.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    Meter(String),
    Gateway(String),
    Network,
}

/// How a series is bucketed, as kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    Hourly,
    Daily,
}

/// One kept bucket: its start (µs), volume and readings.
pub type Point = (i64, i64, i64);

/// The buckets of `scope` that start in `[from_us, to_us)`, oldest first;
/// buckets with no reading are absent. `None`: not kept (hourly buckets are
/// kept per meter only).
pub async fn series(
    db: &Db,
    scope: &Scope,
    kept: Kept,
    from_us: i64,
    to_us: i64,
) -> Result<Option<Vec<Point>>, StorageError> {
    let (table, key) = match (scope, kept) {
        (Scope::Meter(id), Kept::Hourly) => ("meter_hourly", Some(("meter_id", id))),
        (Scope::Meter(id), Kept::Daily) => ("meter_daily", Some(("meter_id", id))),
        (Scope::Gateway(id), Kept::Daily) => ("gateway_daily", Some(("gateway_id", id))),
        (Scope::Network, Kept::Daily) => ("network_daily", None),
        (Scope::Gateway(_) | Scope::Network, Kept::Hourly) => return Ok(None),
    };
    let mut binds = vec![Bind::Int(from_us), Bind::Int(to_us)];
    let owner = key.map_or(String::new(), |(column, id)| {
        binds.push(id.into());
        format!(" AND {column} = $3")
    });
    let sql = format!(
        "SELECT bucket, volume_ml, readings FROM {table} WHERE bucket >= $1 AND bucket < $2{owner} ORDER BY bucket"
    );
    Ok(Some(query::fetch_all(db, sql, binds).await?))
}

/// A gateway's accepted uplinks in `[from_us, to_us)` (its activity), per
/// quarter of an hour and meter named: (quarter's start, meter, uplinks).
/// Every time zone's midnight is on a quarter, so each row falls in one
/// local day.
pub async fn traffic(
    db: &Db,
    gateway_id: &str,
    from_us: i64,
    to_us: i64,
) -> Result<Vec<(i64, Option<String>, i64)>, StorageError> {
    let sql = "SELECT occurred_at - occurred_at % 900000000 AS quarter, meter_id, COUNT(*) FROM gateway_activity \
               WHERE gateway_id = $1 AND occurred_at >= $2 AND occurred_at < $3 GROUP BY quarter, meter_id";
    query::fetch_all(db, sql.to_owned(), vec![gateway_id.into(), Bind::Int(from_us), Bind::Int(to_us)]).await
}

/// One of the meters that used the most: its id, name and volume.
pub type Consumer = (String, String, i64);

/// The `limit` meters that used the most in the days starting in
/// `[from_us, to_us)`, most first (ties by id).
pub async fn top(db: &Db, from_us: i64, to_us: i64, limit: i64) -> Result<Vec<Consumer>, StorageError> {
    let sql = "SELECT d.meter_id, COALESCE(m.device_name, d.meter_id), d.volume_ml FROM \
               (SELECT meter_id, CAST(SUM(volume_ml) AS BIGINT) AS volume_ml FROM meter_daily WHERE bucket >= $1 AND bucket < $2 \
                GROUP BY meter_id ORDER BY SUM(volume_ml) DESC, meter_id LIMIT $3) d \
               LEFT JOIN ingest_meters m ON m.id = d.meter_id ORDER BY d.volume_ml DESC, d.meter_id";
    query::fetch_all(db, sql.to_owned(), vec![Bind::Int(from_us), Bind::Int(to_us), Bind::Int(limit)]).await
}
