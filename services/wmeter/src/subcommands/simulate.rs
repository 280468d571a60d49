//! `wmeter simulate`: a gateway fleet on an MQTT broker, optionally
//! registered through the API first.

use std::{collections::HashMap, time::Duration};

use anyhow::{Context, bail};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use wm_telemetry_ingest::MqttSettings;

use crate::{
    cli::SimulateArgs,
    config::Settings,
    simulator::{self, Broker, SignIn, SimGateway, SimSettings},
};

pub async fn run(settings: Settings, args: SimulateArgs) -> anyhow::Result<()> {
    if !(0.1..=100_000.0).contains(&args.rate) {
        bail!("--rate must be from 0.1 to 100000 uplinks a second, not {}", args.rate);
    }
    let broker = broker(&settings.mqtt, args.broker.as_deref())?;
    let fleet = simulator::fleet(args.gateways, args.meters, args.seed);
    if args.register {
        let password = match std::env::var("WMETER_SIM_PASSWORD") {
            Ok(password) if !password.is_empty() => password,
            _ => super::password::read(&args.username)?,
        };
        let registered = register(&args.api, &args.username, &password, &fleet).await?;
        crate::output::say(format_args!("registered {} devices through {}", registered.created, args.api));
        let backlogged = simulator::scenario_meters(&fleet, &args.scenario);
        let waiting: Vec<&str> = backlogged
            .iter()
            .filter_map(|(_, meter, _)| registered.meters.get(&meter.serial).map(String::as_str))
            .collect();
        registered.until_ingest_knows(&waiting).await;
    }
    let sim = SimSettings {
        rate: args.rate,
        duration: (args.duration > 0).then(|| Duration::from_secs(args.duration)),
        silence: Duration::from_secs(3 * 3600),
        seed: u64::from(args.seed),
        scenarios: args.scenario.clone(),
    };
    let stop = CancellationToken::new();
    let on_signal = stop.clone();
    tokio::spawn(async move {
        crate::shutdown::signal().await;
        on_signal.cancel();
    });
    crate::output::say(format_args!(
        "simulating {} gateways and {} meters on mqtt://{}:{}",
        args.gateways, args.meters, broker.host, broker.port
    ));
    for (gateway, meter, scenario) in simulator::scenario_meters(&fleet, &sim.scenarios) {
        crate::output::say(format_args!(
            "scenario {scenario:?} on meter {} of gateway {}",
            meter.serial, gateway.serial
        ));
    }
    let stats = simulator::run(&fleet, &broker, &sim, stop).await;
    crate::output::say(format_args!(
        "sent {} uplinks; acknowledged {} valve commands",
        stats.sent, stats.commands_acked
    ));
    Ok(())
}

/// Where the simulated gateways connect, and as whom: the shared gateway
/// login, which the broker must accept (docs/device-plane.md).
fn broker(mqtt: &MqttSettings, url: Option<&str>) -> anyhow::Result<Broker> {
    let (host, port) = match url {
        Some(url) => MqttSettings { broker: url.to_owned(), ..mqtt.clone() }
            .broker_address()
            .map_err(|(_, message)| anyhow::anyhow!("--broker: {message}"))?,
        None if mqtt.is_embedded() => {
            let addr: std::net::SocketAddr = mqtt.listen.parse().context("mqtt.listen")?;
            (addr.ip().to_string(), addr.port())
        }
        None => mqtt.broker_address().map_err(|(key, message)| anyhow::anyhow!("{key}: {message}"))?,
    };
    let password = mqtt.gateway_password.clone().context(
        "mqtt.gateway_password: set it (WMETER_MQTT__GATEWAY_PASSWORD) to the password gateways sign in with",
    )?;
    let sign_in = SignIn::Shared { username: mqtt.gateway_username.clone(), password };
    Ok(Broker { host, port, sign_in })
}

/// How long the scenario meters just registered may take to reach ingest
/// before their backlogs go anyway.
const KNOWN_WITHIN: Duration = Duration::from_secs(60);

/// What [`register`] did, and the session it did it in.
struct Registered {
    client: reqwest::Client,
    api: String,
    token: String,
    /// How many devices were created (not already registered).
    created: usize,
    /// The ids of the meters created, by serial number.
    meters: HashMap<String, String>,
}

impl Registered {
    /// Waits until ingest knows the meters `ids`: the registry tells it
    /// through the event log, a moment after the 201, and until then it
    /// dead-letters their uplinks, so a scenario's backlog sent at once
    /// would be lost. Its thresholds answer 404 for a meter it does not
    /// know. Gives up, with a warning, after [`KNOWN_WITHIN`] or on any
    /// other answer.
    async fn until_ingest_knows(&self, ids: &[&str]) {
        let deadline = tokio::time::Instant::now() + KNOWN_WITHIN;
        for id in ids {
            let url = format!("{}/api/thresholds/{id}", self.api);
            loop {
                match self.client.get(&url).bearer_auth(&self.token).send().await.map(|r| r.status()) {
                    Ok(status) if status.is_success() => break,
                    Ok(status) if status != reqwest::StatusCode::NOT_FOUND => {
                        tracing::warn!(meter = id, %status, "cannot ask whether ingest knows the meter");
                        return;
                    }
                    _ => {}
                }
                if tokio::time::Instant::now() >= deadline {
                    tracing::warn!(meter = id, "ingest does not know the meter yet; its backlog may be dead-lettered");
                    return;
                }
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
        }
    }
}

/// Registers each device of `fleet` through the API; ones already
/// registered (409) are kept.
async fn register(api: &str, username: &str, password: &str, fleet: &[SimGateway]) -> anyhow::Result<Registered> {
    let client = wm_http::client::client();
    let api = api.trim_end_matches('/');
    let signed_in: Value = client
        .post(format!("{api}/api/auth/login"))
        .json(&json!({"username": username, "password": password}))
        .send()
        .await
        .with_context(|| format!("cannot reach {api}"))?
        .error_for_status()
        .context("signing in")?
        .json()
        .await?;
    let token = signed_in["accessToken"].as_str().context("no access token in the sign-in answer")?.to_owned();
    let (mut created, mut meters) = (0, HashMap::new());
    for gateway in fleet {
        let body = json!({
            "serialNumber": gateway.serial, "imei": gateway.imei, "phoneNumber": gateway.phone_number,
            "bleAddress": gateway.ble_address, "macAddress": gateway.mac_address,
            "gpsCoordinates": [gateway.gps.0, gateway.gps.1],
        });
        created += usize::from(post(&client, &format!("{api}/api/proxy/gateways/"), &token, body).await?.is_some());
        for meter in &gateway.meters {
            let body = json!({"serialNumber": meter.serial, "bleAddress": meter.ble_address, "gpsCoordinates": [meter.gps.0, meter.gps.1]});
            if let Some(id) = post(&client, &format!("{api}/api/proxy/wmeters/"), &token, body).await? {
                created += 1;
                meters.insert(meter.serial.clone(), id);
            }
        }
    }
    Ok(Registered { client, api: api.to_owned(), token, created, meters })
}

/// The new device's id when created, `None` when already registered.
async fn post(client: &reqwest::Client, url: &str, token: &str, body: Value) -> anyhow::Result<Option<String>> {
    let response = client.post(url).bearer_auth(token).json(&body).send().await?;
    match response.status().as_u16() {
        201 => {
            let created: Value = response.json().await?;
            Ok(Some(created["_id"].as_str().context("no _id in the registration answer")?.to_owned()))
        }
        409 => Ok(None),
        status => bail!("registering at {url}: {status} {}", response.text().await.unwrap_or_default()),
    }
}
