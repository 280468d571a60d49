//! `wmeter seed`: a synthetic network in an empty embedded database, for
//! benchmarks at scale. Devices and readings go through the services' own
//! storage functions (the ones their projections call), in transactions of
//! `--batch` rows, but not through the event log: a `wmeter replay`
//! afterwards would rebuild the tables without them.

use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use chrono::{DateTime, Utc};
use wm_domain::BleAddress;
use wm_proto::{
    Payload,
    prost_types::Timestamp,
    v1::{GatewayRegistered, GpsCoordinates, MeterRegistered},
};
use wm_storage::{Db, Tx, with_pool};
use wm_telemetry_ingest::{
    ingest::events::{Resolved, events},
    uplink::{Body, MeterRef, Unit, Uplink},
};

use crate::{cli::SeedArgs, config::Settings};

/// How far back the readings go.
const READINGS_SPAN: chrono::Duration = chrono::Duration::days(30);

pub async fn run(settings: Settings, args: SeedArgs) -> anyhow::Result<()> {
    ensure!(args.meters > 0 || args.readings == 0, "--readings needs at least one meter");
    let db = Db::connect(&settings.database).await.context("database")?;
    super::migrate::apply(&db, &settings).await?;
    let existing: i64 =
        with_pool!(&db, pool => sqlx::query_scalar("SELECT COUNT(*) FROM gateways").fetch_one(pool).await)?;
    ensure!(existing == 0, "the database already holds {existing} gateways: seed an empty database");

    let net = Network { gateways: args.gateways, meters: args.meters, now: Utc::now() };
    let started = Instant::now();
    let devices = u64::from(args.gateways) + u64::from(args.meters);
    batches(&db, devices, args.batch, "devices", async |tx: &mut Tx, i| net.register(tx, i).await).await?;
    let registered = started.elapsed();
    println!("seeded {} gateways and {} water meters in {}", args.gateways, args.meters, rate(devices, registered));
    let readings = Instant::now();
    batches(&db, args.readings, args.batch, "readings", async |tx: &mut Tx, i| net.reading(tx, i, args.readings).await)
        .await?;
    println!("seeded {} readings in {}", args.readings, rate(args.readings, readings.elapsed()));
    db.close().await;
    Ok(())
}

fn rate(count: u64, took: Duration) -> String {
    format!("{:.1} s ({:.0} a second)", took.as_secs_f64(), count as f64 / took.as_secs_f64().max(1e-9))
}

/// Runs `write(tx, i)` for each `i` in `0..count`, `batch` to a transaction,
/// reporting progress on standard error every 10 s.
async fn batches(
    db: &Db,
    count: u64,
    batch: u32,
    what: &str,
    write: impl AsyncFn(&mut Tx, u64) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut next_report = Instant::now() + Duration::from_secs(10);
    let mut i = 0;
    while i < count {
        let end = (i + u64::from(batch)).min(count);
        let mut tx = db.begin_write().await?;
        for n in i..end {
            write(&mut tx, n).await?;
        }
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

    /// Device `i`: the gateways first, then the meters.
    async fn register(&self, tx: &mut Tx, i: u64) -> anyhow::Result<()> {
        let payload = if i < u64::from(self.gateways) {
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
        };
        wm_device_registry::storage::devices::persist(tx, &payload).await?;
        wm_telemetry_ingest::storage::directory::apply(tx, &payload).await?;
        wm_notification::storage::directory::apply(tx, &payload).await?;
        Ok(())
    }

    /// Reading `i` of `count`: meter `i % meters`, heard by its own
    /// gateway, the events ingest would make of the uplink, applied to
    /// ingest's read tables and the registry's device state.
    async fn reading(&self, tx: &mut Tx, i: u64, count: u64) -> anyhow::Result<()> {
        let m = i % u64::from(self.meters);
        let g = m % u64::from(self.gateways);
        let at = self.now - READINGS_SPAN
            + chrono::Duration::microseconds(
                (READINGS_SPAN.num_microseconds().unwrap_or(0) as f64 * i as f64 / count as f64) as i64,
            );
        let serial = format!("SG{g:08}");
        let uplink = Uplink {
            message_id: Some(i / u64::from(self.gateways) + 1),
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
        for envelope in events(&format!("wmeter/v1/gw/{serial}/reading"), &uplink, &who, at) {
            wm_telemetry_ingest::storage::telemetry::persist(tx, &envelope).await?;
            wm_device_registry::projections::state::apply_one(tx, &envelope).await?;
        }
        Ok(())
    }
}
