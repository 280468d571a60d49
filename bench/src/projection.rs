//! Projection writes: the events of accepted readings applied by ingest's
//! telemetry projection (the rebuild path, a transaction per batch), against
//! batched multi-row inserts of the same rows into the same database.

use std::time::{Duration, Instant};

use anyhow::ensure;
use chrono::{TimeZone, Utc};
use wm_domain::BleAddress;
use wm_eventlog::{
    Record,
    projection::{Effects, Projection, RunOptions},
};
use wm_proto::{Envelope, Payload};
use wm_storage::{DatabaseSettings, Db, with_tx};
use wm_telemetry_ingest::{
    ingest::events::{Resolved, events},
    projections::TelemetryProjection,
};
use wm_uplink::{Body, MeterRef, Unit, Uplink};

use crate::report;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Uplinks per run; each is two rows (an activity and a reading).
    #[arg(long, default_value_t = 100_000)]
    uplinks: u32,
    #[arg(long, default_value_t = 3)]
    runs: usize,
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    ensure!(args.uplinks > 0 && args.runs > 0, "every count must be positive");
    let records = records(args.uplinks)?;
    let batch = RunOptions::default().batch;
    let (mut ours, mut raw) = (Vec::new(), Vec::new());
    for _ in 0..args.runs {
        let dir = tempfile::tempdir()?;
        let settings =
            DatabaseSettings { url: format!("sqlite://{}/p.db", dir.path().display()), ..Default::default() };
        let db = Db::connect(&settings).await?;
        db.migrate(&wm_telemetry_ingest::MIGRATIONS).await?;
        let projection = TelemetryProjection { db: db.clone() };
        let started = Instant::now();
        for chunk in records.chunks(batch) {
            projection.apply(chunk, Effects::Suppressed).await.map_err(|e| anyhow::anyhow!(e))?;
        }
        ours.push(rate(records.len(), started.elapsed()));
        projection.reset().await.map_err(|e| anyhow::anyhow!(e))?;
        let started = Instant::now();
        for chunk in records.chunks(batch) {
            insert_rows(&db, chunk).await?;
        }
        raw.push(rate(records.len(), started.elapsed()));
        db.close().await;
    }
    let what = format!("projection writes: telemetry, SQLite, {} rows a transaction", batch);
    report::row(&what, "rows/s", &ours, Some(&raw), true, "—");
    Ok(())
}

fn rate(rows: usize, took: Duration) -> f64 {
    rows as f64 / took.as_secs_f64()
}

/// The log records ingest appends for `uplinks` readings of 20 meters on 2 gateways.
fn records(uplinks: u32) -> anyhow::Result<Vec<Record>> {
    let start = Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).single().unwrap_or_default();
    let mut out = Vec::with_capacity(uplinks as usize * 2);
    for i in 0..uplinks {
        let (g, m) = (i % 2, i % 20);
        let at = start + chrono::Duration::milliseconds(i64::from(i) * 100);
        let uplink = Uplink {
            message_id: Some(u64::from(i) + 1),
            timestamp: Some(at),
            body: Body::Reading {
                meter: MeterRef::Ble(BleAddress::parse(&format!("C0:00:00:00:00:{m:02X}"))?),
                record: u64::from(1 + i % 50),
                unit: Unit::Litre,
            },
        };
        let who = Resolved {
            gateway_id: format!("{g:024x}"),
            gateway_serial: format!("SG{g:08}"),
            meter_id: Some(format!("{:024x}", 100 + m)),
        };
        for envelope in events(&format!("wmeter/v1/gw/SG{g:08}/reading"), &uplink, &who, at) {
            let offset = out.len() as i64;
            let topic = envelope.topic().unwrap_or_default().to_owned();
            let key = envelope.device_id.clone();
            out.push(Record {
                topic,
                partition: 0,
                offset,
                key,
                payload: envelope.to_bytes(),
                headers: Vec::new(),
                timestamp: at,
            });
        }
    }
    Ok(out)
}

/// The same rows as the projection writes, as one multi-row INSERT per
/// table in one transaction.
async fn insert_rows(db: &Db, records: &[Record]) -> anyhow::Result<()> {
    let (mut activity, mut readings) = (Vec::new(), Vec::new());
    for record in records {
        let envelope = Envelope::from_bytes(&record.payload)?;
        let at = envelope.occurred_at_utc().unwrap_or_default().timestamp_micros();
        match envelope.payload {
            Some(Payload::GatewayActivity(a)) => activity.push((envelope.event_id, a, at)),
            Some(Payload::ReadingReceived(r)) => readings.push((envelope.event_id, r, at)),
            _ => {}
        }
    }
    let mut tx = db.begin_write().await?;
    if !activity.is_empty() {
        let sql = format!(
            "INSERT INTO gateway_activity (event_id, gateway_id, meter_id, mqtt_topic, action, occurred_at) VALUES {}",
            crate::seeding::values(activity.len(), 6, false)
        );
        with_tx!(&mut tx, conn => {
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql.as_str()));
            for (id, a, at) in &activity {
                query = query.bind(id).bind(&a.gateway_id).bind(&a.meter_id).bind(&a.mqtt_topic).bind(&a.action).bind(at);
            }
            query.execute(&mut **conn).await.map(|_| ())
        })?;
    }
    if !readings.is_empty() {
        let sql = format!(
            "INSERT INTO readings (event_id, meter_id, gateway_id, record_ml, occurred_at) VALUES {}",
            crate::seeding::values(readings.len(), 5, false)
        );
        with_tx!(&mut tx, conn => {
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql.as_str()));
            for (id, r, at) in &readings {
                let ml = i64::try_from(r.record).unwrap_or(i64::MAX) * 1000;
                query = query.bind(id).bind(&r.meter_id).bind(&r.gateway_id).bind(ml).bind(at);
            }
            query.execute(&mut **conn).await.map(|_| ())
        })?;
    }
    tx.commit().await?;
    Ok(())
}
