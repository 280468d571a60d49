//! `wmeter seed`: a synthetic network in an empty database, for benchmarks
//! at scale. Devices and readings go through each service's seeding entry
//! point (`seed`), which loads in bulk (multi-row statements on SQLite,
//! `COPY` on PostgreSQL), in transactions of `--batch` rows, but not
//! through the event log: a `wmeter replay` afterwards would rebuild the
//! tables without them. The indexes whose order is not the
//! seeder's are built after the readings, by a sort
//! ([`defer_scattered_indexes`](wm_telemetry_ingest::seed::defer_scattered_indexes)),
//! and on PostgreSQL the database is vacuumed and analysed last ([`settle`]).

use std::{
    ops::Range,
    time::{Duration, Instant},
};

use anyhow::{Context, ensure};
use chrono::{DateTime, Utc};
use wm_domain::BleAddress;
use wm_proto::{
    Payload,
    prost_types::Timestamp,
    v1::{GatewayRegistered, GpsCoordinates, MeterRegistered},
};
use wm_storage::{Db, Tx};
use wm_telemetry_ingest::{
    ingest::events::{Resolved, events},
    seed::HeldRollups,
};
use wm_uplink::{Body, MeterRef, Unit, Uplink};

use crate::{cli::SeedArgs, config::Settings};

/// How far back the readings go.
const READINGS_SPAN: chrono::Duration = chrono::Duration::days(30);

pub async fn run(settings: Settings, args: SeedArgs) -> anyhow::Result<()> {
    ensure!(args.meters > 0 || args.readings == 0, "--readings needs at least one meter");
    let _in_use = crate::database_file::share(&settings.database)?;
    let db = Db::connect(&settings.database).await.context("database")?;
    super::migrate::apply(&db, &settings).await?;
    let existing = wm_device_registry::seed::gateways(&db).await?;
    ensure!(existing == 0, "the database already holds {existing} gateways: seed an empty database");

    let analytics = settings.analytics.clone();
    let net = Network { gateways: args.gateways, meters: args.meters, now: Utc::now(), analytics };
    let started = Instant::now();
    let devices = u64::from(args.gateways) + u64::from(args.meters);
    batches(&db, devices, args.batch, "devices", async |tx: &mut Tx, range| net.register(tx, range).await).await?;
    let registered = started.elapsed();
    println!("seeded {} gateways and {} water meters in {}", args.gateways, args.meters, rate(devices, registered));
    let readings = Instant::now();
    let span = ((net.now - READINGS_SPAN).timestamp_micros(), net.now.timestamp_micros());
    wm_telemetry_ingest::seed::months(&db, span.0, span.1).await?;
    let deferred = wm_telemetry_ingest::seed::defer_scattered_indexes(&db).await?;
    let mut held = HeldRollups::default();
    let loaded = batches(&db, args.readings, args.batch, "readings", async |tx: &mut Tx, range| {
        net.readings(tx, range, args.readings, &mut held).await
    })
    .await;
    let loaded = match loaded {
        Ok(()) => held.add(&db).await.map_err(anyhow::Error::from),
        failed => failed,
    };
    // Built again after a failed load too; the load's error comes first.
    let building = Instant::now();
    let built = deferred.build(&db).await;
    loaded?;
    built?;
    eprintln!("readings: indexes built in {:.1} s", building.elapsed().as_secs_f64());
    println!("seeded {} readings in {}", args.readings, rate(args.readings, readings.elapsed()));
    settle(&db).await?;
    db.close().await;
    Ok(())
}

/// On PostgreSQL, vacuums and analyses the whole database once the load is
/// done, as after any bulk load: the planner gets its statistics, and each
/// page its hint bits and its place in the visibility map, now, rather
/// than from autovacuum, throttled, while the first readers are served (at
/// DESIGN §10's scale, minutes after the load). Left out of the seeder's
/// rate: the raw loads it is set against do not vacuum either. SQLite has
/// neither to set.
async fn settle(db: &Db) -> anyhow::Result<()> {
    let Db::Postgres(pool) = db else { return Ok(()) };
    let started = Instant::now();
    sqlx::raw_sql("VACUUM (ANALYZE)").execute(pool).await.context("vacuuming the seeded database")?;
    eprintln!("database: vacuumed and analysed in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

fn rate(count: u64, took: Duration) -> String {
    format!("{:.1} s ({:.0} a second)", took.as_secs_f64(), count as f64 / took.as_secs_f64().max(1e-9))
}

/// Runs `write(tx, range)` over `0..count` in ranges of `batch`, a
/// transaction each, reporting progress on standard error every 10 s.
async fn batches(
    db: &Db,
    count: u64,
    batch: u32,
    what: &str,
    mut write: impl AsyncFnMut(&mut Tx, Range<u64>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut next_report = Instant::now() + Duration::from_secs(10);
    let mut i = 0;
    while i < count {
        let end = (i + u64::from(batch)).min(count);
        let mut tx = db.begin_write().await?;
        wm_telemetry_ingest::seed::widen_cache(&mut tx).await?;
        write(&mut tx, i..end).await?;
        tx.commit().await?;
        i = end;
        if Instant::now() >= next_report {
            eprintln!("{what}: {i} of {count}");
            next_report += Duration::from_secs(10);
        }
    }
    Ok(())
}

/// The synthetic network: every identifier derives from a device's number.
struct Network {
    gateways: u32,
    meters: u32,
    now: DateTime<Utc>,
    /// The rollups' time zone.
    analytics: wm_telemetry_ingest::AnalyticsSettings,
}

fn address(prefix: u8, n: u64) -> String {
    let b = n.to_be_bytes();
    format!("{prefix:02X}:{:02X}:{:02X}:{:02X}:{:02X}:{:02X}", b[3], b[4], b[5], b[6], b[7])
}

/// A point in a 20 × 13 km area around Lyon, scattered by `n`.
fn position(n: u64) -> Option<GpsCoordinates> {
    let spread = |salt: u64| ((n.wrapping_mul(2_654_435_761).wrapping_add(salt) % 10_000) as f64) / 10_000.0;
    Some(GpsCoordinates { longitude: 4.75 + 0.25 * spread(1), latitude: 45.70 + 0.12 * spread(7) })
}

impl Network {
    fn gateway_id(g: u64) -> String {
        format!("5eed0000{g:016x}")
    }

    fn meter_id(m: u64) -> String {
        format!("5eed0001{m:016x}")
    }

    /// Registration time: a year ago, a millisecond apart within each kind.
    fn registered_at(&self, n: u64) -> Option<Timestamp> {
        let at = self.now - chrono::Duration::days(365) + chrono::Duration::milliseconds(n as i64);
        Some(wm_proto::time::to_timestamp(at))
    }

    /// Devices `range`: the gateways first, then the meters.
    async fn register(&self, tx: &mut Tx, range: Range<u64>) -> anyhow::Result<()> {
        let events: Vec<Payload> = range.map(|i| self.device(i)).collect();
        wm_device_registry::seed::registrations(tx, &events).await?;
        wm_telemetry_ingest::seed::registrations(tx, &events).await?;
        wm_notification::seed::registrations(tx, &events).await?;
        Ok(())
    }

    /// Device `i`'s registration.
    fn device(&self, i: u64) -> Payload {
        if i < u64::from(self.gateways) {
            Payload::GatewayRegistered(GatewayRegistered {
                id: Self::gateway_id(i),
                serial_number: format!("SG{i:08}"),
                imei: format!("35{i:013}"),
                phone_number: format!("07{i:08}"),
                ble_address: address(0xA0, i),
                mac_address: address(0xB0, i),
                gps: position(i),
                device_name: format!("GTW-SG{i:08}"),
                registered_at: self.registered_at(i),
            })
        } else {
            let m = i - u64::from(self.gateways);
            Payload::MeterRegistered(MeterRegistered {
                id: Self::meter_id(m),
                serial_number: format!("SM{m:08}"),
                ble_address: address(0xC0, m),
                gps: position(m + 1_000_000_007),
                device_name: format!("W-SM{m:08}"),
                registered_at: self.registered_at(m),
            })
        }
    }

    /// Readings `range` of `count`, as the events ingest would make of their
    /// uplinks, applied to ingest's read tables and the registry's state;
    /// the rollups of gateways and of the network go to `held`.
    async fn readings(&self, tx: &mut Tx, range: Range<u64>, count: u64, held: &mut HeldRollups) -> anyhow::Result<()> {
        let mut envelopes = Vec::new();
        for i in range {
            envelopes.extend(self.reading(i, count)?);
        }
        wm_telemetry_ingest::seed::telemetry(tx, &envelopes, &self.analytics, held).await?;
        wm_device_registry::seed::telemetry(tx, &envelopes).await?;
        Ok(())
    }

    /// Reading `i` of `count`: on meter and at the time
    /// [`reading_place`](wm_telemetry_ingest::seed::reading_place) says,
    /// within the last [`READINGS_SPAN`], heard by its own gateway (meter
    /// `m % gateways`).
    fn reading(&self, i: u64, count: u64) -> anyhow::Result<Vec<wm_proto::Envelope>> {
        let (m, through) = wm_telemetry_ingest::seed::reading_place(i, self.meters, count);
        let g = m % u64::from(self.gateways);
        let span = READINGS_SPAN.num_microseconds().unwrap_or(0) as f64;
        let at = self.now - READINGS_SPAN + chrono::Duration::microseconds((span * through) as i64);
        let serial = format!("SG{g:08}");
        let uplink = Uplink {
            message_id: Some(i + 1),
            timestamp: Some(at),
            body: Body::Reading {
                meter: MeterRef::Ble(BleAddress::parse(&address(0xC0, m))?),
                record: 1 + i % 50,
                unit: Unit::Litre,
            },
        };
        let who = Resolved {
            gateway_id: Self::gateway_id(g),
            gateway_serial: serial.clone(),
            meter_id: Some(Self::meter_id(m)),
        };
        Ok(events(&format!("wmeter/v1/gw/{serial}/reading"), &uplink, &who, at))
    }
}
