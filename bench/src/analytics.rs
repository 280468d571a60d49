//! Water intelligence at the seeded scale (docs/analytics.md, docs/map.md):
//! a year of one meter's days, 30 days of the network and a map view, each
//! under concurrent clients against the storage call it makes; and the
//! billing export of every meter, its rate against the bare query's, and
//! the server's memory while it streams.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use anyhow::{Context, ensure};
use futures::StreamExt;
use wm_device_registry::{
    map::{Bbox, FINEST},
    storage::map as map_storage,
};
use wm_storage::Db;
use wm_telemetry_ingest::storage::{
    exports::{self, IndexAt, IndexFilter},
    rollups::{self, Kept, Scope},
};

use crate::{
    load::{self, Sample, scatter},
    report,
    server::{Seed, Server},
};

const DAY_US: i64 = 24 * 3_600_000_000;

#[derive(Clone, Copy, Debug)]
enum Read {
    MeterYear,
    NetworkMonth,
    MapView,
}

const READS: [Read; 3] = [Read::MeterYear, Read::NetworkMonth, Read::MapView];

/// Where `wmeter seed` puts its devices: west, south, east, north.
const AREA: [f64; 4] = [4.75, 45.70, 5.0, 45.82];

/// A view for operation `x`: the whole network, a district, or a street.
fn view(x: u64) -> Bbox {
    let [w, s, e, n] = AREA;
    let size = [e - w, 0.05, 0.004][(x % 3) as usize];
    let (fx, fy) = ((x >> 8) % 1000, (x >> 20) % 1000);
    let west = w + (e - w - size).max(0.0) * fx as f64 / 1000.0;
    let south = s + (n - s - size * 0.6).max(0.0) * fy as f64 / 1000.0;
    Bbox { west, south, east: west + size, north: south + (size * 0.6).min(n - s) }
}

fn meter_id(m: u64) -> String {
    format!("5eed0001{m:016x}")
}

fn iso(us: i64) -> String {
    chrono::DateTime::from_timestamp_micros(us).unwrap_or_default().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

impl Read {
    fn name(self) -> &'static str {
        match self {
            Read::MeterYear => "a year of one meter's days",
            Read::NetworkMonth => "30 days of the network's days",
            Read::MapView => "a map view (network, district or street), at most 2,000 clusters or markers",
        }
    }

    fn path(self, seed: Seed, now_us: i64, i: u64) -> String {
        let x = scatter(i);
        match self {
            Read::MeterYear => format!(
                "/api/rollups?meter={}&bucket=day&from={}&to={}",
                meter_id(x % u64::from(seed.meters)),
                iso(now_us - 365 * DAY_US),
                iso(now_us)
            ),
            Read::NetworkMonth => "/api/rollups?bucket=day".to_owned(),
            Read::MapView => {
                let b = view(x);
                format!("/api/map?bbox={},{},{},{}", b.west, b.south, b.east, b.north)
            }
        }
    }

    async fn bare(self, db: &Db, seed: Seed, now_us: i64, i: u64) -> anyhow::Result<()> {
        let x = scatter(i);
        match self {
            Read::MeterYear => {
                let meter = Scope::Meter(meter_id(x % u64::from(seed.meters)));
                rollups::series(db, &meter, Kept::Daily, now_us - 366 * DAY_US, now_us).await?;
            }
            Read::NetworkMonth => {
                rollups::series(db, &Scope::Network, Kept::Daily, now_us - 31 * DAY_US, now_us).await?;
            }
            Read::MapView => {
                let bbox = view(x);
                let level = bbox.level();
                let (cells, _) = map_storage::cells(db, level.min(FINEST), bbox.corners(level.min(FINEST))).await?;
                if level > FINEST && cells.iter().map(|c| c.devices()).sum::<i64>() <= 2000 {
                    map_storage::devices(db, &bbox, 2001).await?;
                }
            }
        }
        Ok(())
    }
}

/// What was measured through HTTP while the server ran.
pub struct Measured {
    reads: Vec<Sample>,
    export: (f64, f64, u64),
}

/// The reads and the export through the API of `server`.
pub async fn through_http(
    server: &Server,
    seed: Seed,
    client: &reqwest::Client,
    token: &Arc<String>,
    (clients, duration): (usize, Duration),
) -> anyhow::Result<Measured> {
    wait_for_map(server, client, token).await?;
    let now_us = chrono::Utc::now().timestamp_micros();
    let base = Arc::new(server.url.clone());
    let mut reads = Vec::new();
    for read in READS {
        let (client, token, base) = (client.clone(), token.clone(), base.clone());
        let op = move |i: u64| {
            let request = client.get(format!("{base}{}", read.path(seed, now_us, i))).bearer_auth(token.as_str());
            async move {
                let response = request.send().await?;
                let ok = response.status().is_success();
                response.bytes().await?;
                Ok(ok)
            }
        };
        let op = Arc::new(op);
        let warm = op.clone();
        load::closed_loop(clients, Duration::from_secs(1), move |i| warm(i)).await?;
        reads.push(load::closed_loop(clients, duration, move |i| op(i)).await?);
    }
    let export = export(server, client, token).await?;
    Ok(Measured { reads, export })
}

/// The map is counted once the server started: wait for the first count.
async fn wait_for_map(server: &Server, client: &reqwest::Client, token: &str) -> anyhow::Result<()> {
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let extent: serde_json::Value =
            client.get(format!("{}/api/map/extent", server.url)).bearer_auth(token).send().await?.json().await?;
        if extent["devices"].as_i64().unwrap_or(0) > 0 {
            return Ok(());
        }
        ensure!(Instant::now() < deadline, "the map was not counted within 5 minutes");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// The billing export of every meter: rows a second, and how much the
/// server's resident memory grew above where it stood before, in MiB.
async fn export(server: &Server, client: &reqwest::Client, token: &str) -> anyhow::Result<(f64, f64, u64)> {
    let before = server.rss_mib()?;
    let (mut lines, mut peak) = (0u64, before);
    let started = Instant::now();
    let response = client.get(format!("{}/api/exports/meter-index", server.url)).bearer_auth(token).send().await?;
    ensure!(response.status().is_success(), "the export answered {}", response.status());
    let mut body = response.bytes_stream();
    let mut sampled = Instant::now();
    while let Some(chunk) = body.next().await {
        lines += chunk?.iter().filter(|b| **b == b'\n').count() as u64;
        if sampled.elapsed() > Duration::from_millis(100) {
            peak = peak.max(server.rss_mib()?);
            sampled = Instant::now();
        }
    }
    let rows = lines.saturating_sub(1);
    Ok((rows as f64 / started.elapsed().as_secs_f64(), peak.max(server.rss_mib()?) - before, rows))
}

/// The same reads and export against the database, without HTTP; then the
/// rows of the figures.
pub async fn report(
    db: &Arc<Db>,
    seed: Seed,
    measured: Measured,
    (clients, duration): (usize, Duration),
) -> anyhow::Result<()> {
    let now_us = chrono::Utc::now().timestamp_micros();
    let backend = match db.backend() {
        wm_storage::Backend::Sqlite => "SQLite",
        wm_storage::Backend::Postgres => "PostgreSQL",
    };
    let scale = format!("{} meters, {} readings, {backend}", seed.meters, seed.readings);
    for (read, ours) in READS.iter().zip(&measured.reads) {
        let (db, read) = (db.clone(), *read);
        let bare = load::closed_loop(clients, duration, move |i| {
            let db = db.clone();
            async move { Ok(read.bare(&db, seed, now_us, i).await.is_ok()) }
        })
        .await?;
        let what = format!("API {}, {clients} clients, {scale}{}", read.name(), ours.failure_note());
        report::row(&what, "ms", &ours.latencies_ms, Some(&bare.latencies_ms), false, "p99 ≤ 20 ms");
    }
    let (rate, growth, rows) = measured.export;
    let bare = bare_export(db).await?;
    ensure!(rows == u64::from(seed.meters), "the export had {rows} rows for {} meters", seed.meters);
    let what = format!("billing export: every meter's index ({rows} rows), streamed");
    report::row(&what, "rows/s", &[rate], Some(&[bare]), true, "≥ 100,000 rows/s");
    report::row("server memory growth while the export streams", "MiB", &[growth], None, false, "flat");
    Ok(())
}

/// Rows a second of the export's query alone, read as the route reads it.
async fn bare_export(db: &Db) -> anyhow::Result<f64> {
    let (sink, mut rows) = tokio::sync::mpsc::channel(1024);
    let now = chrono::Utc::now().timestamp_micros();
    let at = IndexAt { hour_us: now, day_us: now + DAY_US };
    let started = Instant::now();
    let db = db.clone();
    let producer = tokio::spawn(async move { exports::meter_index(&db, at, &IndexFilter::default(), &sink).await });
    let mut n = 0u64;
    while let Some(row) = rows.recv().await {
        row.context("the export's query")?;
        n += 1;
    }
    producer.await?;
    Ok(n as f64 / started.elapsed().as_secs_f64())
}
