//! Embedded ingest: MQTT uplinks until they are visible through the API,
//! against the raw publish → subscribe rate through the same broker.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU32, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::{Context, bail, ensure};
use chrono::{SecondsFormat, Utc};
use rumqttc::{AsyncClient, Event, Packet, QoS};
use serde_json::{Value, json};

use crate::{
    Common,
    publisher::{self, Broker},
    report,
    server::{GATEWAY_USER, Server},
};

/// The longest page of the gateway list.
const MAX_GATEWAYS: u32 = 500;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    common: Common,
    /// Gateways, one MQTT connection each.
    #[arg(long, default_value_t = 20)]
    gateways: u32,
    /// Water meters per gateway.
    #[arg(long, default_value_t = 10)]
    meters_per_gateway: u32,
    /// Readings published per run.
    #[arg(long, default_value_t = 100_000)]
    messages: u32,
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    ensure!(args.gateways > 0 && args.meters_per_gateway > 0 && args.messages > 0, "every count must be positive");
    ensure!(args.gateways <= MAX_GATEWAYS, "at most {MAX_GATEWAYS} gateways: one page of the list counts them");
    let (mut raw, mut ours, mut rss) = (Vec::new(), Vec::new(), Vec::new());
    for run in 1..=args.common.runs {
        let server = Server::start(&args.common.wmeter, None).await?;
        let fleet = Fleet::register(&server, args.gateways, args.meters_per_gateway).await?;
        raw.push(raw_rate(&fleet, args.messages).await?);
        ours.push(ingest_rate(&fleet, args.messages).await?);
        rss.push(server.peak_rss_mib()?);
        eprintln!(
            "run {run}: raw {:.0}/s, ingest {:.0}/s, peak RSS {:.1} MiB",
            raw[run - 1],
            ours[run - 1],
            rss[run - 1]
        );
    }
    let what = format!("MQTT → committed projection, embedded ({} readings)", args.messages);
    report::row(&what, "events/s", &ours, Some(&raw), true, "≥ 50,000/s and ≥ 0.5×");
    report::row("peak RSS of `wmeter serve` under that load", "MiB", &rss, None, false, "≤ 200 MB");
    Ok(())
}

/// The registered gateways, and the BLE addresses of each one's meters.
struct Fleet {
    gateways: Vec<(String, Vec<String>)>,
    broker: Broker,
    api: Api,
}

struct Api {
    url: String,
    token: String,
    client: reqwest::Client,
}

impl Api {
    async fn post(&self, path: &str, body: Value) -> anyhow::Result<()> {
        let response =
            self.client.post(format!("{}{path}", self.url)).bearer_auth(&self.token).json(&body).send().await?;
        ensure!(response.status().is_success(), "POST {path}: {}", response.text().await?);
        Ok(())
    }

    async fn get(&self, path: &str) -> anyhow::Result<Value> {
        let response = self.client.get(format!("{}{path}", self.url)).bearer_auth(&self.token).send().await?;
        Ok(response.error_for_status()?.json().await?)
    }
}

fn address(prefix: u8, n: u32) -> String {
    let b = n.to_be_bytes();
    format!("{prefix:02X}:{:02X}:{:02X}:{:02X}:{:02X}:01", b[0], b[1], b[2], b[3])
}

impl Fleet {
    async fn register(server: &Server, gateways: u32, meters_per_gateway: u32) -> anyhow::Result<Fleet> {
        let client = reqwest::Client::new();
        let api = Api { url: server.url.clone(), token: server.sign_in(&client).await?, client };
        let mut fleet = Vec::new();
        for g in 0..gateways {
            let serial = format!("BG{g:08}");
            let body = json!({"serialNumber": serial, "imei": format!("35{g:013}"), "phoneNumber": format!("07{g:08}"),
                              "bleAddress": address(0xA0, g), "macAddress": address(0xB0, g)});
            api.post("/api/proxy/gateways/", body).await?;
            let mut meters = Vec::new();
            for m in 0..meters_per_gateway {
                let n = g * meters_per_gateway + m;
                let ble = address(0xC0, n);
                api.post("/api/proxy/wmeters/", json!({"serialNumber": format!("BM{n:08}"), "bleAddress": ble}))
                    .await?;
                meters.push(ble);
            }
            fleet.push((serial, meters));
        }
        let broker = Broker {
            port: server.mqtt_port,
            username: GATEWAY_USER.to_owned(),
            password: server.gateway_password().to_owned(),
        };
        let fleet = Fleet { gateways: fleet, broker, api };
        fleet.warm_up().await?;
        Ok(fleet)
    }

    /// One reading per gateway, until each is counted: ingest has learnt
    /// the fleet from the registry's events, and every stage is warm.
    async fn warm_up(&self) -> anyhow::Result<()> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut id = 1_000_000_000;
        while self.records().await? < self.gateways.len() as u64 {
            ensure!(Instant::now() < deadline, "ingest did not learn the fleet within 60 s");
            id += 1;
            let warm = self.gateways.iter().map(|(serial, meters)| (serial.clone(), vec![reading(id, &meters[0])]));
            publisher::publish_all(&self.broker, self.connections(warm.collect())).await?;
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        // Until the count stands still: no warm-up reading is still on its way.
        let mut last = self.records().await?;
        loop {
            tokio::time::sleep(Duration::from_millis(500)).await;
            let now = self.records().await?;
            if now == last {
                return Ok(());
            }
            last = now;
        }
    }

    /// `(client id, topic, payloads)` of each gateway's readings.
    fn connections(&self, per_gateway: Vec<(String, Vec<Vec<u8>>)>) -> Vec<(String, String, Vec<Vec<u8>>)> {
        per_gateway
            .into_iter()
            .map(|(serial, payloads)| (format!("bench-{serial}"), format!("wmeter/v1/gw/{serial}/reading"), payloads))
            .collect()
    }

    /// `messages` readings spread over the gateways, with fresh message ids.
    fn readings(&self, messages: u32) -> Vec<(String, Vec<Vec<u8>>)> {
        let per = messages.div_ceil(self.gateways.len() as u32);
        let mut left = messages;
        self.gateways
            .iter()
            .map(|(serial, meters)| {
                let count = per.min(left);
                left -= count;
                let payloads =
                    (0..count).map(|i| reading(u64::from(i) + 1, &meters[i as usize % meters.len()])).collect();
                (serial.clone(), payloads)
            })
            .collect()
    }

    /// The readings every gateway has pushed, as the API shows them.
    async fn records(&self) -> anyhow::Result<u64> {
        let list = self.api.get(&format!("/api/proxy/gateways?max={MAX_GATEWAYS}")).await?;
        let gateways = list.as_array().context("a list of gateways")?;
        Ok(gateways.iter().filter_map(|g| g["recordsCount"].as_u64()).sum())
    }
}

/// A reading of 1 L: the size of a real one.
fn reading(message_id: u64, meter: &str) -> Vec<u8> {
    let timestamp = Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true);
    json!({"messageId": message_id, "timestamp": timestamp, "meter": meter, "record": 1, "unit": "L"})
        .to_string()
        .into_bytes()
}

/// Readings through the broker to one subscriber, in messages a second.
async fn raw_rate(fleet: &Fleet, messages: u32) -> anyhow::Result<f64> {
    let (client, mut eventloop) = AsyncClient::new(publisher::options(&fleet.broker, "bench-raw-subscriber"), 1000);
    client.subscribe("bench/raw/#", QoS::AtLeastOnce).await?;
    loop {
        if let Event::Incoming(Packet::SubAck(_)) = eventloop.poll().await? {
            break;
        }
    }
    let received = Arc::new(AtomicU32::new(0));
    let counter = received.clone();
    let subscriber = tokio::spawn(async move {
        while counter.load(Ordering::Relaxed) < messages {
            if let Event::Incoming(Packet::Publish(_)) = eventloop.poll().await? {
                counter.fetch_add(1, Ordering::Relaxed);
            }
        }
        anyhow::Ok(())
    });
    let connections = fleet
        .readings(messages)
        .into_iter()
        .map(|(serial, payloads)| (format!("raw-{serial}"), format!("bench/raw/{serial}"), payloads))
        .collect();
    let started = Instant::now();
    publisher::publish_all(&fleet.broker, connections).await?;
    tokio::time::timeout(Duration::from_secs(300), subscriber).await.context("the subscriber stalled")???;
    Ok(f64::from(messages) / started.elapsed().as_secs_f64())
}

/// Readings from the gateways until the API counts them all, in events a second.
async fn ingest_rate(fleet: &Fleet, messages: u32) -> anyhow::Result<f64> {
    let before = fleet.records().await?;
    let started = Instant::now();
    publisher::publish_all(&fleet.broker, fleet.connections(fleet.readings(messages))).await?;
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        let counted = fleet.records().await? - before;
        if counted >= u64::from(messages) {
            if counted > u64::from(messages) {
                bail!("counted {counted} readings of {messages} published");
            }
            return Ok(f64::from(messages) / started.elapsed().as_secs_f64());
        }
        ensure!(Instant::now() < deadline, "only {counted} of {messages} readings counted within 10 minutes");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
