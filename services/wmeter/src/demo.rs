//! `wmeter serve --demo`: a network registered on the first run, and the
//! gateway simulator feeding it through the embedded broker, so the
//! dashboard is alive from the start.

use std::{collections::HashMap, time::Duration};

use anyhow::Context;
use wm_device_registry::{
    RegistryError,
    actions::Actions,
    domain::{gateway::NewGateway, meter::NewMeter},
    storage::{lists, rows::GatewayRow},
};
use wm_domain::{BleAddress, DeviceId, GpsCoordinates, Imei, MacAddress, PhoneNumber, SerialNumber};
use wm_eventlog::audit::Attempt;

use crate::{
    app::Application,
    simulator::{self, Broker, Scenario, SignIn, SimGateway, SimSettings},
};

/// The demo network: gateways, meters, and the seed of their identifiers.
const GATEWAYS: u32 = 8;
const METERS: u32 = 60;
const SEED: u8 = 1;
/// Who the demo's registrations are by.
const ACTOR: &str = "system:demo";

/// Registers what is missing of the demo network and starts the simulator.
pub async fn start(app: &mut Application) -> anyhow::Result<()> {
    let fleet = simulator::fleet(GATEWAYS, METERS, SEED);
    let actions = app.registry().context("the demo needs the registry")?.clone();
    let registered = register(&actions, &fleet).await?;
    if registered > 0 {
        crate::output::say(format_args!("demo network: registered {GATEWAYS} gateways and {METERS} water meters"));
    }
    let (addr, _) = app.embedded_broker().context("the demo needs the embedded broker")?;
    let secrets = provision(&actions, &fleet).await?;
    let broker = Broker { host: addr.ip().to_string(), port: addr.port(), sign_in: SignIn::Own(secrets) };
    let settings = SimSettings {
        rate: 5.0,
        duration: None,
        silence: Duration::from_secs(3 * 3600),
        seed: 7,
        scenarios: vec![Scenario::Leak, Scenario::Burst, Scenario::Stuck],
    };
    app.spawn(move |stop| async move {
        // Ingest learns new devices from the registry's events: give it a moment.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let stats = simulator::run(&fleet, &broker, &settings, stop).await;
        tracing::info!(sent = stats.sent, acked = stats.commands_acked, "demo simulator stopped");
    });
    crate::output::say(format_args!(
        "demo simulator: {GATEWAYS} gateways publishing about 5 messages a second; a leak, a burst and a stuck meter"
    ));
    crate::output::say(format_args!(
        "demo gateways sign in to the broker with their own secrets, rotated at each start (see a gateway's page)"
    ));
    Ok(())
}

/// Registers each device of `fleet` not registered yet; returns how many.
async fn register(actions: &Actions, fleet: &[SimGateway]) -> anyhow::Result<usize> {
    let mut registered = 0;
    for gateway in fleet {
        let new = NewGateway {
            serial_number: SerialNumber::parse(&gateway.serial)?,
            imei: Imei::parse(&gateway.imei)?,
            phone_number: PhoneNumber::parse(&gateway.phone_number)?,
            ble_address: BleAddress::parse(&gateway.ble_address)?,
            mac_address: MacAddress::parse(&gateway.mac_address)?,
            gps: GpsCoordinates::new(gateway.gps.0, gateway.gps.1).ok(),
        };
        registered += usize::from(fresh(
            actions.register_gateway(&Attempt::new(ACTOR, "admin", None, "gateway.register"), new).await,
        )?);
        for meter in &gateway.meters {
            let new = NewMeter {
                serial_number: SerialNumber::parse(&meter.serial)?,
                ble_address: BleAddress::parse(&meter.ble_address)?,
                gps: GpsCoordinates::new(meter.gps.0, meter.gps.1).ok(),
            };
            registered += usize::from(fresh(
                actions.register_meter(&Attempt::new(ACTOR, "admin", None, "meter.register"), new).await,
            )?);
        }
    }
    Ok(registered)
}

/// Gives each gateway of `fleet` a new secret (revoking the one the last
/// run gave it, which nobody kept), by serial number.
async fn provision(actions: &Actions, fleet: &[SimGateway]) -> anyhow::Result<HashMap<String, String>> {
    let mut secrets = HashMap::new();
    for gateway in fleet {
        let row = lists::by_serial::<GatewayRow>(&actions.db, &gateway.serial).await?;
        let id = row.context("a demo gateway is not registered")?.id;
        let attempt = Attempt::new(ACTOR, "admin", None, "gateway.credential.issue");
        let issued = actions.issue_secret(&attempt, DeviceId::parse(&id)?).await?;
        secrets.insert(gateway.serial.clone(), issued.proof);
    }
    Ok(secrets)
}

/// Whether a registration was new; one already done is not an error.
fn fresh<T>(result: Result<T, RegistryError>) -> anyhow::Result<bool> {
    match result {
        Ok(_) => Ok(true),
        Err(RegistryError::Taken(_)) => Ok(false),
        Err(e) => Err(anyhow::Error::new(e).context("registering the demo network")),
    }
}
