//! The seeder's raw reference (issue 23, item 6): the rows `wmeter seed`
//! writes for each reading that any writer of these tables would, its
//! reading and its gateway activity, into the same tables with the same
//! indexes, by plain multi-row `INSERT`s and, on PostgreSQL, by `COPY`, in
//! transactions of the seeder's size and in its order. The indexes the
//! seeder builds after its load are built after this one too, in its time
//! (`seed::defer_scattered_indexes`). The seeder also
//! keeps each device's state and the consumption rollups: the ratio is
//! what those cost.

use std::time::{Duration, Instant};

use chrono::Utc;
use sqlx::{PgConnection, SqliteConnection};
use wm_storage::{DatabaseSettings, Db, Tx};
use wm_test_support::TestDb;

use crate::server::Seed;

/// Readings a transaction: `wmeter seed`'s default `--batch`.
const BATCH: u64 = 20_000;
/// Rows a multi-row `INSERT`: six columns stay under SQLite's 32,766
/// parameters.
const ROWS_A_STATEMENT: usize = 5_000;
/// How far back the readings go, as `wmeter seed` spreads them.
const SPAN: chrono::TimeDelta = chrono::TimeDelta::days(30);

/// Readings a second each way of loading.
pub struct Rates {
    pub multi_row: f64,
    /// PostgreSQL only.
    pub copy: Option<f64>,
}

/// Loads `seed.readings` readings' rows into fresh databases of the
/// backend `postgres` names, once per way.
pub async fn reference(seed: Seed, postgres: bool) -> anyhow::Result<Rates> {
    if !postgres {
        let dir = tempfile::tempdir()?;
        let settings = DatabaseSettings::with_url(format!("sqlite://{}/reference.db", dir.path().display()));
        let db = Db::connect(&settings).await?;
        let multi_row = load(&db, seed, Way::MultiRow).await?;
        db.close().await;
        return Ok(Rates { multi_row, copy: None });
    }
    let mut rates = Vec::new();
    for way in [Way::MultiRow, Way::Copy] {
        let db = TestDb::postgres().await.ok_or_else(|| anyhow::anyhow!("PostgreSQL needs WM_TEST_PG_URL"))?;
        rates.push(load(&db, seed, way).await?);
    }
    Ok(Rates { multi_row: rates[0], copy: Some(rates[1]) })
}

#[derive(Clone, Copy)]
enum Way {
    MultiRow,
    Copy,
}

/// Readings a second, loading them into `db` (migrated here) `way`.
async fn load(db: &Db, seed: Seed, way: Way) -> anyhow::Result<f64> {
    db.migrate(&wm_telemetry_ingest::MIGRATIONS).await?;
    let now = Utc::now();
    let span = ((now - SPAN).timestamp_micros(), now.timestamp_micros());
    wm_telemetry_ingest::seed::months(db, span.0, span.1).await?;
    let started = Instant::now();
    let deferred = wm_telemetry_ingest::seed::defer_scattered_indexes(db).await?;
    let mut first = 0;
    while first < seed.readings {
        let end = (first + BATCH).min(seed.readings);
        let rows: Vec<Row> = (first..end).map(|i| Row::of(seed, i, span)).collect();
        let mut tx = db.begin_write().await?;
        wm_telemetry_ingest::seed::widen_cache(&mut tx).await?;
        match (&mut tx, way) {
            (Tx::Sqlite(conn, _), Way::MultiRow) => insert_sqlite(conn, &rows).await?,
            (Tx::Postgres(conn), Way::MultiRow) => insert_postgres(conn, &rows).await?,
            (Tx::Postgres(conn), Way::Copy) => copy(conn, &rows).await?,
            (Tx::Sqlite(..), Way::Copy) => anyhow::bail!("SQLite has no COPY"),
        }
        tx.commit().await?;
        first = end;
    }
    deferred.build(db).await?;
    Ok(per_second(seed.readings, started.elapsed()))
}

fn per_second(count: u64, took: Duration) -> f64 {
    count as f64 / took.as_secs_f64().max(1e-9)
}

/// One reading's rows, as the seeder makes reading `i`: where
/// `seed::reading_place` puts it in the last 30 days, heard by gateway
/// `meter % gateways`.
struct Row {
    event_id: String,
    activity_id: String,
    meter_id: String,
    gateway_id: String,
    topic: String,
    record_ml: i64,
    at: i64,
}

impl Row {
    fn of(seed: Seed, i: u64, (from, to): (i64, i64)) -> Row {
        let (m, through) = wm_telemetry_ingest::seed::reading_place(i, seed.meters, seed.readings);
        let g = m % u64::from(seed.gateways);
        let at = from + ((to - from) as f64 * through) as i64;
        Row {
            event_id: uuid::Uuid::now_v7().to_string(),
            activity_id: uuid::Uuid::now_v7().to_string(),
            meter_id: format!("5eed0001{m:016x}"),
            gateway_id: format!("5eed0000{g:016x}"),
            topic: format!("wmeter/v1/gw/SG{g:08}/reading"),
            record_ml: 1_000 * (1 + (i % 50) as i64),
            at,
        }
    }
}

const ACTIVITY: &str =
    "INSERT INTO gateway_activity (event_id, gateway_id, meter_id, mqtt_topic, action, occurred_at) VALUES ";
const READINGS: &str = "INSERT INTO readings (event_id, meter_id, gateway_id, record_ml, occurred_at) VALUES ";

/// `(…), (…)`: `rows` tuples of `columns` parameters, `?` on SQLite (which
/// binds numbered ones in quadratic time), `$n` on PostgreSQL. The
/// projection figure's reference uses it too.
pub fn values(rows: usize, columns: usize, numbered: bool) -> String {
    let tuple = |r: usize| {
        let each: Vec<String> =
            (1..=columns).map(|c| if numbered { format!("${}", r * columns + c) } else { "?".to_owned() }).collect();
        format!("({})", each.join(", "))
    };
    (0..rows).map(tuple).collect::<Vec<_>>().join(", ")
}

/// Binds `chunk`'s activity, then its readings, to the two statements, and
/// runs them on `$conn`.
macro_rules! insert_chunks {
    ($conn:expr, $rows:expr, $numbered:expr) => {
        for chunk in $rows.chunks(ROWS_A_STATEMENT) {
            let sql = format!("{ACTIVITY}{}", values(chunk.len(), 6, $numbered));
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
            for r in chunk {
                query = query.bind(&r.activity_id).bind(&r.gateway_id).bind(&r.meter_id);
                query = query.bind(&r.topic).bind("reading").bind(r.at);
            }
            query.execute(&mut *$conn).await?;
            let sql = format!("{READINGS}{}", values(chunk.len(), 5, $numbered));
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
            for r in chunk {
                query = query.bind(&r.event_id).bind(&r.meter_id).bind(&r.gateway_id).bind(r.record_ml).bind(r.at);
            }
            query.execute(&mut *$conn).await?;
        }
    };
}

async fn insert_sqlite(conn: &mut SqliteConnection, rows: &[Row]) -> anyhow::Result<()> {
    insert_chunks!(conn, rows, false);
    Ok(())
}

async fn insert_postgres(conn: &mut PgConnection, rows: &[Row]) -> anyhow::Result<()> {
    insert_chunks!(conn, rows, true);
    Ok(())
}

/// The same rows by `COPY … FROM STDIN`, text format (no value holds a tab,
/// a newline or a backslash).
async fn copy(conn: &mut PgConnection, rows: &[Row]) -> anyhow::Result<()> {
    use std::fmt::Write as _;
    let mut text = String::new();
    for r in rows {
        let _ = writeln!(text, "{}\t{}\t{}\t{}\treading\t{}", r.activity_id, r.gateway_id, r.meter_id, r.topic, r.at);
    }
    let columns = "gateway_activity (event_id, gateway_id, meter_id, mqtt_topic, action, occurred_at)";
    let mut copy = conn.copy_in_raw(&format!("COPY {columns} FROM STDIN")).await?;
    copy.send(text.into_bytes()).await?;
    copy.finish().await?;
    let mut text = String::new();
    for r in rows {
        let _ = writeln!(text, "{}\t{}\t{}\t{}\t{}", r.event_id, r.meter_id, r.gateway_id, r.record_ml, r.at);
    }
    let mut copy =
        conn.copy_in_raw("COPY readings (event_id, meter_id, gateway_id, record_ml, occurred_at) FROM STDIN").await?;
    copy.send(text.into_bytes()).await?;
    copy.finish().await?;
    Ok(())
}
