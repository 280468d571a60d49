//! `wmeter simulate`: a gateway fleet on an MQTT broker, optionally
//! registered through the API first.

use std::time::Duration;

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
        let created = register(&args.api, &args.username, &password, &fleet).await?;
        crate::output::say(format_args!("registered {created} devices through {}", args.api));
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

/// Registers each device of `fleet` through the API; ones already
/// registered (409) are kept. Returns how many were created.
async fn register(api: &str, username: &str, password: &str, fleet: &[SimGateway]) -> anyhow::Result<usize> {
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
    let token = signed_in["accessToken"].as_str().context("no access token in the sign-in answer")?;
    let mut created = 0;
    for gateway in fleet {
        let body = json!({
            "serialNumber": gateway.serial, "imei": gateway.imei, "phoneNumber": gateway.phone_number,
            "bleAddress": gateway.ble_address, "macAddress": gateway.mac_address,
            "gpsCoordinates": [gateway.gps.0, gateway.gps.1],
        });
        created += post(&client, &format!("{api}/api/proxy/gateways/"), token, body).await?;
        for meter in &gateway.meters {
            let body = json!({"serialNumber": meter.serial, "bleAddress": meter.ble_address, "gpsCoordinates": [meter.gps.0, meter.gps.1]});
            created += post(&client, &format!("{api}/api/proxy/wmeters/"), token, body).await?;
        }
    }
    Ok(created)
}

/// 1 when created, 0 when already registered.
async fn post(client: &reqwest::Client, url: &str, token: &str, body: Value) -> anyhow::Result<usize> {
    let response = client.post(url).bearer_auth(token).json(&body).send().await?;
    match response.status().as_u16() {
        201 => Ok(1),
        409 => Ok(0),
        status => bail!("registering at {url}: {status} {}", response.text().await.unwrap_or_default()),
    }
}
