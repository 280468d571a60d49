//! A small registered network on a benchmark's server: gateways that
//! publish as real ones do, and the meters each one hears.

use std::{
    ops::Range,
    time::{Duration, Instant},
};

use anyhow::{Context, ensure};
use serde_json::{Value, json};

use crate::publisher::{self, Broker, Payload, TIME_SLOT};

/// The longest page of the gateway list.
pub const MAX_GATEWAYS: u32 = 500;

/// The fleet and the load of an ingest figure.
#[derive(Debug, clap::Args)]
pub struct Load {
    /// Gateways, one MQTT connection each.
    #[arg(long, default_value_t = 20)]
    pub gateways: u32,
    /// Water meters per gateway.
    #[arg(long, default_value_t = 10)]
    pub meters_per_gateway: u32,
    /// Readings published per run.
    #[arg(long, default_value_t = 100_000)]
    pub messages: u32,
}

impl Load {
    pub fn validate(&self) -> anyhow::Result<()> {
        ensure!(self.gateways > 0 && self.meters_per_gateway > 0 && self.messages > 0, "every count must be positive");
        ensure!(self.gateways <= MAX_GATEWAYS, "at most {MAX_GATEWAYS} gateways: one page of the list counts them");
        Ok(())
    }
}

/// The registered gateways, and the BLE addresses of each one's meters.
pub struct Fleet {
    pub gateways: Vec<(String, Vec<String>)>,
    pub broker: Broker,
    pub api: Api,
}

pub struct Api {
    pub url: String,
    pub token: String,
    pub client: reqwest::Client,
}

impl Api {
    /// Signs in at `url` as `(username, password)`.
    pub async fn sign_in(url: &str, (username, password): (&str, &str)) -> anyhow::Result<Api> {
        let client = wm_http::client::client();
        let response = client
            .post(format!("{url}/api/auth/login"))
            .json(&json!({"username": username, "password": password}))
            .send()
            .await?;
        let status = response.status();
        // The API's error (`code`, `message`) says more than the status.
        ensure!(status.is_success(), "sign-in: {status}: {}", response.text().await?);
        let response: Value = response.json().await?;
        let token = response["accessToken"].as_str().context("no accessToken")?.to_owned();
        Ok(Api { url: url.to_owned(), token, client })
    }

    pub async fn post(&self, path: &str, body: Value) -> anyhow::Result<()> {
        let response =
            self.client.post(format!("{}{path}", self.url)).bearer_auth(&self.token).json(&body).send().await?;
        ensure!(response.status().is_success(), "POST {path}: {}", response.text().await?);
        Ok(())
    }

    pub async fn get(&self, path: &str) -> anyhow::Result<Value> {
        let response = self.client.get(format!("{}{path}", self.url)).bearer_auth(&self.token).send().await?;
        Ok(response.error_for_status()?.json().await?)
    }
}

pub fn address(prefix: u8, n: u32) -> String {
    let b = n.to_be_bytes();
    format!("{prefix:02X}:{:02X}:{:02X}:{:02X}:{:02X}:01", b[0], b[1], b[2], b[3])
}

impl Fleet {
    /// Registers `gateways` gateways with `meters_per_gateway` meters each
    /// through `api`, and waits until ingest hears them on `broker`.
    pub async fn register(api: Api, broker: Broker, gateways: u32, meters_per_gateway: u32) -> anyhow::Result<Fleet> {
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
        let fleet = Fleet { gateways: fleet, broker, api };
        fleet.warm_up().await?;
        Ok(fleet)
    }

    /// One reading per gateway, until each is counted: ingest has learnt
    /// the fleet from the registry's events, and every stage is warm.
    pub async fn warm_up(&self) -> anyhow::Result<()> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut id = 1_000_000_000;
        while self.records().await? < self.gateways.len() as u64 {
            ensure!(Instant::now() < deadline, "ingest did not learn the fleet within 60 s");
            id += 1;
            let warm = self.gateways.iter().map(|(serial, meters)| (serial.clone(), vec![reading(id, &meters[0])]));
            publisher::publish_all(&self.broker, self.connections(warm.collect()), None).await?;
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        // Until the count stands still for 2 s: no warm-up reading is still
        // on its way (through Kafka, one can take over half a second).
        let mut last = self.records().await?;
        let mut still = 0;
        while still < 4 {
            tokio::time::sleep(Duration::from_millis(500)).await;
            let now = self.records().await?;
            still = if now == last { still + 1 } else { 0 };
            last = now;
        }
        Ok(())
    }

    /// `(client id, topic, payloads)` of each gateway's readings.
    pub fn connections(&self, per_gateway: Vec<(String, Vec<Payload>)>) -> Vec<(String, String, Vec<Payload>)> {
        per_gateway
            .into_iter()
            .map(|(serial, payloads)| (format!("bench-{serial}"), format!("wmeter/v1/gw/{serial}/reading"), payloads))
            .collect()
    }

    /// `messages` readings spread over `gateways` (a range of the fleet's),
    /// with message ids from `first_id` on.
    pub fn readings(&self, gateways: Range<usize>, messages: u32, first_id: u64) -> Vec<(String, Vec<Payload>)> {
        let gateways = &self.gateways[gateways];
        let per = messages.div_ceil(gateways.len().max(1) as u32);
        let mut left = messages;
        gateways
            .iter()
            .map(|(serial, meters)| {
                let count = per.min(left);
                left -= count;
                let payloads =
                    (0..count).map(|i| reading(first_id + u64::from(i), &meters[i as usize % meters.len()])).collect();
                (serial.clone(), payloads)
            })
            .collect()
    }

    /// The readings one gateway has pushed, as the API shows them.
    pub async fn records_of(&self, serial: &str) -> anyhow::Result<u64> {
        let gateway = self.api.get(&format!("/api/proxy/gateways/serial/{serial}")).await?;
        gateway["recordsCount"].as_u64().context("a gateway with a recordsCount")
    }

    /// Where one gateway's newest activity item is read: it changes once
    /// ingest has committed a message of that gateway.
    pub async fn newest_activity_of(&self, serial: &str) -> anyhow::Result<String> {
        let gateway = self.api.get(&format!("/api/proxy/gateways/serial/{serial}")).await?;
        let id = gateway["_id"].as_str().context("a gateway with an _id")?;
        Ok(format!("/api/proxy/gateways/gateway-activity/{id}?max=1"))
    }

    /// The readings every gateway has pushed, as the API shows them.
    pub async fn records(&self) -> anyhow::Result<u64> {
        let list = self.api.get(&format!("/api/proxy/gateways?max={MAX_GATEWAYS}")).await?;
        let gateways = list.as_array().context("a list of gateways")?;
        Ok(gateways.iter().filter_map(|g| g["recordsCount"].as_u64()).sum())
    }
}

/// A reading of 1 L: the size of a real one, timed as it is sent.
pub fn reading(message_id: u64, meter: &str) -> Payload {
    let body = json!({"messageId": message_id, "timestamp": TIME_SLOT, "meter": meter, "record": 1, "unit": "L"});
    Payload::new(body.to_string().into_bytes())
}
