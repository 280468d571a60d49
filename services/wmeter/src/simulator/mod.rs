//! `wmeter simulate`: a fleet of gateways speaking the MQTT contract
//! (`docs/mqtt.md`) at a chosen rate: readings of what a household uses
//! since its previous reading ([`usage`]), BLE RSSI from -40 to -95 dBm,
//! discoveries of unregistered peripherals, alerts that are raised and
//! later cleared, occasional shutdown requests, gateways that fall silent
//! for a while (so they turn lost), and acks for every valve command
//! received. Scenarios make the first meters leak, burst or stick, with the
//! backlog their detectors need sent first.

mod fleet;
mod gateway;
mod usage;

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

use self::gateway::Connection;
pub use self::{
    fleet::{SimGateway, SimMeter, fleet},
    usage::Scenario,
};
use wm_uplink::topic::Kind;

/// How a simulation runs.
#[derive(Clone, Debug, PartialEq)]
pub struct SimSettings {
    /// Uplinks per second, across the gateways online (those fallen
    /// silent send nothing, and the others make up their share).
    pub rate: f64,
    /// How long to run; `None`: until stopped.
    pub duration: Option<Duration>,
    /// How long a silent gateway stays away.
    pub silence: Duration,
    /// Seeds the random choices.
    pub seed: u64,
    /// What goes wrong on the first meters: scenario `i` on meter `i`.
    pub scenarios: Vec<Scenario>,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub sent: u64,
    pub commands_acked: u64,
}

const ALERTS: [&str; 4] = ["leak", "burst", "tamper", "low-battery"];

/// The meters `scenarios` apply to, with their gateway: scenario `i` on the
/// fleet's meter `i` (meters go round the gateways).
pub fn scenario_meters<'a>(
    fleet: &'a [SimGateway],
    scenarios: &[Scenario],
) -> Vec<(&'a SimGateway, &'a SimMeter, Scenario)> {
    scenarios
        .iter()
        .enumerate()
        .filter_map(|(i, scenario)| {
            let gateway = fleet.get(i % fleet.len().max(1))?;
            Some((gateway, gateway.meters.get(i / fleet.len().max(1))?, *scenario))
        })
        .collect()
}

/// When the backlogs are sent, after the start: again, in case the devices
/// were registered so recently that ingest did not know them yet (their
/// message ids make a second copy a resend, taken once).
const BACKLOG_AT: [Duration; 3] = [Duration::ZERO, Duration::from_secs(3), Duration::from_secs(30)];

/// Sends each scenario meter's backlog, as of `since`, through its
/// gateway's connection.
async fn send_backlogs(
    fleet: &[SimGateway],
    online: &[Option<Connection>],
    scenarios: &[Scenario],
    since: chrono::DateTime<Utc>,
) -> u64 {
    let mut sent = 0;
    for (i, (gateway, meter, scenario)) in scenario_meters(fleet, scenarios).into_iter().enumerate() {
        let Some(Some(connection)) = fleet.iter().position(|g| g.serial == gateway.serial).map(|g| &online[g]) else {
            continue;
        };
        for (at, ml) in usage::backlog(scenario, since) {
            let body = json!({"meter": meter.ble_address, "record": ml, "unit": "mL"});
            match connection.send_measured(Kind::Reading, body, usage::backlog_id(at, i), at).await {
                Ok(()) => sent += 1,
                Err(e) => tracing::warn!(error = %e, meter = meter.serial, "backlog reading not sent"),
            }
        }
    }
    sent
}

/// Where the simulated gateways connect, and how each signs in.
#[derive(Clone, Debug)]
pub struct Broker {
    pub host: String,
    pub port: u16,
    pub sign_in: SignIn,
}

/// How each simulated gateway signs in (docs/device-plane.md).
#[derive(Clone)]
pub enum SignIn {
    /// The shared gateway login (`mqtt.gateway_password`), as client
    /// `sim-{serial}`.
    Shared { username: String, password: String },
    /// Each gateway as itself: its serial number as username and client
    /// id, and its own secret, by serial number.
    Own(std::collections::HashMap<String, String>),
}

impl std::fmt::Debug for SignIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SignIn::Shared { username, .. } => f.debug_struct("Shared").field("username", username).finish(),
            SignIn::Own(secrets) => f.debug_tuple("Own").field(&secrets.len()).finish(),
        }
    }
}

impl SignIn {
    /// The client id, username and password of the gateway `serial`.
    pub fn of(&self, serial: &str) -> (String, String, String) {
        match self {
            SignIn::Shared { username, password } => (format!("sim-{serial}"), username.clone(), password.clone()),
            SignIn::Own(secrets) => {
                (serial.to_owned(), serial.to_owned(), secrets.get(serial).cloned().unwrap_or_default())
            }
        }
    }
}

/// A gateway online, each as likely as the others, drawn again while the
/// draw falls on one fallen silent: the rate is what the fleet's online
/// part sends, so the third that may fall silent does not take a third of
/// the ticks with it. `None` when none is online.
fn pick_online<T>(online: &[Option<T>], rng: &mut impl Rng) -> Option<usize> {
    if online.iter().all(Option::is_none) {
        return None;
    }
    loop {
        let g = rng.random_range(0..online.len());
        if online[g].is_some() {
            return Some(g);
        }
    }
}

/// Runs `fleet` on `broker` until
/// the duration ends or `stop`.
pub async fn run(fleet: &[SimGateway], broker: &Broker, settings: &SimSettings, stop: CancellationToken) -> Stats {
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
    let scenario_of: HashMap<&str, Scenario> =
        scenario_meters(fleet, &settings.scenarios).into_iter().map(|(_, m, s)| (m.serial.as_str(), s)).collect();
    let mut read_at: HashMap<&str, chrono::DateTime<Utc>> = HashMap::new();
    let mut sent = 0;
    let started = Instant::now();
    let since = Utc::now();
    let mut backlogs = BACKLOG_AT.iter().peekable();
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / settings.rate.max(0.01)));
    // The run ends at `stop` or when its time is up, even while a send
    // waits for a connection that no longer takes anything.
    // The timer goes with the run (the guard cancels `end` when it returns).
    let end = stop.child_token();
    let _timer = end.clone().drop_guard();
    if let Some(duration) = settings.duration {
        let end = end.clone();
        tokio::spawn(async move {
            end.run_until_cancelled(tokio::time::sleep(duration)).await;
            end.cancel();
        });
    }
    while !end.is_cancelled() && !fleet.is_empty() {
        tokio::select! {
            () = end.cancelled() => break,
            _ = tick.tick() => {}
        }
        if backlogs.next_if(|at| started.elapsed() >= **at).is_some() && !settings.scenarios.is_empty() {
            tokio::select! {
                () = end.cancelled() => break,
                backlog = send_backlogs(fleet, &online, &settings.scenarios, since) => sent += backlog,
            }
        }
        silent_until.retain(|&g, until| {
            let back = Instant::now() >= *until;
            if back {
                online[g] = Some(Connection::open(&fleet[g].serial, broker, ids[g].clone(), acked.clone()));
            }
            !back
        });
        let Some(g) = pick_online(&online, &mut rng) else { continue };
        let Some(connection) = &online[g] else { continue };
        let gateway = &fleet[g];
        let roll = rng.random_range(0..100);
        let send = match (roll, gateway.meters.choose(&mut rng)) {
            (0..2, _) if silent_until.len() < fleet.len() / 3 => {
                if let Some(connection) = online[g].take() {
                    connection.fall_silent();
                }
                silent_until.insert(g, Instant::now() + settings.silence);
                continue;
            }
            (0..10, _) | (_, None) => connection.send(Kind::Heartbeat, json!({})),
            (10..14, _) => {
                let peripheral = format!(
                    "5D:{:02X}:{:02X}:{:02X}:{:02X}:{:02X}",
                    rng.random::<u8>(),
                    rng.random::<u8>(),
                    rng.random::<u8>(),
                    rng.random::<u8>(),
                    rng.random::<u8>()
                );
                connection.send(Kind::Discovery, json!({"name": "", "bleAddress": peripheral}))
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
                connection.send(Kind::Alert, body)
            }
            (19..20, Some(meter)) => connection.send(Kind::ShutdownRequest, json!({"meter": meter.ble_address})),
            (20..40, Some(meter)) => {
                connection.send(Kind::Ble, json!({"meter": meter.ble_address, "rssi": rng.random_range(-95..=-40)}))
            }
            (_, Some(meter)) => {
                let now = Utc::now();
                let last = read_at.insert(&meter.serial, now).unwrap_or(since);
                let ml = usage::used_ml(
                    scenario_of.get(meter.serial.as_str()).copied(),
                    last,
                    now,
                    rng.random_range(0.6..1.4),
                );
                connection.send(Kind::Reading, json!({"meter": meter.ble_address, "record": ml, "unit": "mL"}))
            }
        };
        let result = tokio::select! {
            () = end.cancelled() => break,
            result = send => result,
        };
        match result {
            Ok(()) => sent += 1,
            Err(e) => tracing::warn!(error = %e, gateway = gateway.serial, "simulated uplink not sent"),
        }
    }
    let mut closing = tokio::task::JoinSet::new();
    for connection in online.into_iter().flatten() {
        closing.spawn(connection.close());
    }
    closing.join_all().await;
    Stats { sent, commands_acked: acked.load(Ordering::Relaxed) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tick_goes_to_a_gateway_online_and_the_online_ones_share_them() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut online = [Some(()); 6];
        online[1] = None;
        online[4] = None;
        let mut picked = [0_u32; 6];
        for _ in 0..40_000 {
            picked[pick_online(&online, &mut rng).unwrap()] += 1;
        }
        assert_eq!((picked[1], picked[4]), (0, 0), "{picked:?}");
        for g in [0, 2, 3, 5] {
            assert!((9_000..11_000).contains(&picked[g]), "a quarter each: {picked:?}");
        }
        online[4] = Some(());
        assert!((0..1_000).any(|_| pick_online(&online, &mut rng) == Some(4)), "a gateway back online is picked again");
        assert_eq!(pick_online(&[None::<()>; 3], &mut rng), None);
        assert_eq!(pick_online::<()>(&[], &mut rng), None);
    }
}
