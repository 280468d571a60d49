//! `wmeter simulate`: a fleet of gateways speaking the MQTT contract
//! (`docs/mqtt.md`) at a chosen rate: realistic readings (each meter's
//! volume only grows), BLE RSSI from -40 to -95 dBm, discoveries of
//! unregistered peripherals, alerts that are raised and later cleared,
//! occasional shutdown requests, gateways that fall silent for a while (so
//! they turn lost), and acks for every valve command received.

mod fleet;
mod gateway;

use std::{
    collections::HashMap,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use chrono::Utc;
use rand::{Rng, SeedableRng, rngs::StdRng, seq::IndexedRandom};
use serde_json::json;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

pub use self::fleet::{SimGateway, fleet};
use self::gateway::Connection;
use wm_mqtt::Login;
use wm_uplink::topic::Kind;

/// How a simulation runs.
#[derive(Clone, Debug, PartialEq)]
pub struct SimSettings {
    /// Uplinks per second, across the fleet.
    pub rate: f64,
    /// How long to run; `None`: until stopped.
    pub duration: Option<Duration>,
    /// How long a silent gateway stays away.
    pub silence: Duration,
    /// Seeds the random choices.
    pub seed: u64,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub sent: u64,
    pub commands_acked: u64,
}

const ALERTS: [&str; 4] = ["leak", "burst", "tamper", "low-battery"];

/// Runs `fleet` on the broker at `broker` (with the gateways' login) until
/// the duration ends or `stop`.
pub async fn run(fleet: &[SimGateway], broker: &Login, settings: &SimSettings, stop: CancellationToken) -> Stats {
    let mut rng = StdRng::seed_from_u64(settings.seed);
    let acked = Arc::new(AtomicU64::new(0));
    let start_id = u64::try_from(Utc::now().timestamp_micros()).unwrap_or(1);
    let ids: Vec<Arc<AtomicU64>> = fleet.iter().map(|_| Arc::new(AtomicU64::new(start_id))).collect();
    let mut online: Vec<Option<Connection>> = fleet
        .iter()
        .zip(&ids)
        .map(|(g, id)| Some(Connection::open(&g.serial, broker, id.clone(), acked.clone())))
        .collect();
    let mut silent_until: HashMap<usize, Instant> = HashMap::new();
    let mut raised: HashMap<String, &'static str> = HashMap::new();
    let mut sent = 0;
    let started = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / settings.rate.max(0.01)));
    while settings.duration.is_none_or(|d| started.elapsed() < d) && !fleet.is_empty() {
        tokio::select! {
            () = stop.cancelled() => break,
            _ = tick.tick() => {}
        }
        silent_until.retain(|&g, until| {
            let back = Instant::now() >= *until;
            if back {
                online[g] = Some(Connection::open(&fleet[g].serial, broker, ids[g].clone(), acked.clone()));
            }
            !back
        });
        let g = rng.random_range(0..fleet.len());
        let Some(connection) = &online[g] else { continue };
        let gateway = &fleet[g];
        let roll = rng.random_range(0..100);
        let result = match (roll, gateway.meters.choose(&mut rng)) {
            (0..2, _) if silent_until.len() < fleet.len() / 3 => {
                if let Some(connection) = online[g].take() {
                    connection.fall_silent();
                }
                silent_until.insert(g, Instant::now() + settings.silence);
                continue;
            }
            (0..10, _) | (_, None) => connection.send(Kind::Heartbeat, json!({})).await,
            (10..14, _) => {
                let peripheral = format!(
                    "5D:{:02X}:{:02X}:{:02X}:{:02X}:{:02X}",
                    rng.random::<u8>(),
                    rng.random::<u8>(),
                    rng.random::<u8>(),
                    rng.random::<u8>(),
                    rng.random::<u8>()
                );
                connection.send(Kind::Discovery, json!({"name": "", "bleAddress": peripheral})).await
            }
            (14..19, Some(meter)) => {
                let body = match raised.remove(&meter.serial) {
                    Some(alert) => json!({"meter": meter.ble_address, "type": alert, "state": "cleared"}),
                    None => {
                        let alert = *ALERTS.choose(&mut rng).unwrap_or(&"leak");
                        raised.insert(meter.serial.clone(), alert);
                        json!({"meter": meter.ble_address, "type": alert, "state": "raised"})
                    }
                };
                connection.send(Kind::Alert, body).await
            }
            (19..20, Some(meter)) => connection.send(Kind::ShutdownRequest, json!({"meter": meter.ble_address})).await,
            (20..40, Some(meter)) => {
                connection
                    .send(Kind::Ble, json!({"meter": meter.ble_address, "rssi": rng.random_range(-95..=-40)}))
                    .await
            }
            (_, Some(meter)) => {
                connection
                    .send(
                        Kind::Reading,
                        json!({"meter": meter.ble_address, "record": rng.random_range(0..=20), "unit": "L"}),
                    )
                    .await
            }
        };
        match result {
            Ok(()) => sent += 1,
            Err(e) => tracing::warn!(error = %e, gateway = gateway.serial, "simulated uplink not sent"),
        }
    }
    for connection in online.into_iter().flatten() {
        connection.close().await;
    }
    Stats { sent, commands_acked: acked.load(Ordering::Relaxed) }
}
