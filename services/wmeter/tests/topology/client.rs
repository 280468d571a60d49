//! What the scenarios do to the deployment: sign in, register devices and
//! read through the gateway, and publish uplinks as a gateway.

use std::time::Duration;

use futures::StreamExt;
use rumqttc::{AsyncClient, Event, MqttOptions, Packet, QoS};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::cluster::{Cluster, GATEWAY_LOGIN};

/// An operator signed in through the gateway.
pub struct Operator {
    pub base: String,
    pub token: String,
    pub client: reqwest::Client,
}

impl Operator {
    /// Creates user `username` with the CLI (on the auth database and log),
    /// then signs in through the gateway.
    pub async fn create(cluster: &Cluster, username: &str) -> Operator {
        let password = "a-long-topology-password";
        cluster.add_user(username, password, "operator");
        let client = wm_http::client::client();
        let base = cluster.url("gateway");
        let response = client
            .post(format!("{base}/api/auth/login"))
            .json(&json!({"username": username, "password": password}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{}", response.text().await.unwrap());
        let token = response.json::<Value>().await.unwrap()["accessToken"].as_str().unwrap().to_owned();
        Operator { base, token, client }
    }

    pub async fn post(&self, path: &str, body: Value) -> reqwest::Response {
        self.client.post(format!("{}{path}", self.base)).bearer_auth(&self.token).json(&body).send().await.unwrap()
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.get_with(&self.client, path).await.unwrap()
    }

    /// A GET with `client` (a timeout of its own, say), its error returned.
    pub async fn get_with(&self, client: &reqwest::Client, path: &str) -> reqwest::Result<reqwest::Response> {
        client.get(format!("{}{path}", self.base)).bearer_auth(&self.token).send().await
    }

    pub async fn json(&self, path: &str) -> Value {
        let response = self.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        response.json().await.unwrap()
    }

    /// The stream of the operator's notifications from the service at
    /// `base` (a notification replica), open.
    pub async fn notifications(&self, base: &str) -> reqwest::Response {
        let response = self
            .client
            .get(format!("{base}/api/notifications"))
            .bearer_auth(&self.token)
            .header("Accept", "text/event-stream")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{base}");
        response
    }

    /// Registers gateway `n` (serial `TG0000000n`) and returns its id.
    pub async fn register_gateway(&self, n: u32) -> String {
        let body = json!({
            "serialNumber": format!("TG{n:08}"), "imei": format!("35{n:013}"), "phoneNumber": format!("07{n:08}"),
            "bleAddress": address(0xA0, n), "macAddress": address(0xB0, n),
        });
        let response = self.post("/api/proxy/gateways/", body).await;
        assert_eq!(response.status(), 201, "{}", response.text().await.unwrap());
        response.json::<Value>().await.unwrap()["_id"].as_str().unwrap().to_owned()
    }

    /// Registers meter `n` (BLE address `C0:…`) and returns its id.
    pub async fn register_meter(&self, n: u32) -> String {
        let body = json!({"serialNumber": format!("TM{n:08}"), "bleAddress": address(0xC0, n)});
        let response = self.post("/api/proxy/wmeters/", body).await;
        assert_eq!(response.status(), 201, "{}", response.text().await.unwrap());
        response.json::<Value>().await.unwrap()["_id"].as_str().unwrap().to_owned()
    }
}

/// `PP:00:00:NN:NN:NN` for a prefix and a number.
pub fn address(prefix: u8, n: u32) -> String {
    format!("{prefix:02X}:00:00:{:02X}:{:02X}:{:02X}", (n >> 16) & 0xFF, (n >> 8) & 0xFF, n & 0xFF)
}

/// A gateway on the deployment's Mosquitto.
pub struct Uplink {
    pub serial: String,
    client: AsyncClient,
    acks: mpsc::UnboundedReceiver<()>,
    next_id: u64,
}

impl Uplink {
    pub async fn connect(cluster: &Cluster, serial: &str) -> Uplink {
        let addr = cluster.mosquitto.addr;
        let mut options = MqttOptions::new(format!("topo-{serial}"), addr.ip().to_string(), addr.port());
        options
            .set_credentials(GATEWAY_LOGIN.0, GATEWAY_LOGIN.1)
            .set_keep_alive(Duration::from_secs(30))
            .set_inflight(200);
        let (client, mut eventloop) = AsyncClient::new(options, 50_000);
        let (tx, acks) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            loop {
                match eventloop.poll().await {
                    Ok(Event::Incoming(Packet::PubAck(_))) => {
                        let _ = tx.send(());
                    }
                    Ok(_) => {}
                    Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
                }
            }
        });
        Uplink { serial: serial.to_owned(), client, acks, next_id: 1 }
    }

    /// Publishes one uplink of `kind` (QoS 1) with the next message id.
    pub async fn send(&mut self, kind: &str, mut payload: Value) {
        payload["messageId"] = json!(self.next_id);
        payload["timestamp"] = json!(chrono::Utc::now().to_rfc3339());
        self.next_id += 1;
        let topic = format!("wmeter/v1/gw/{}/{kind}", self.serial);
        self.client.publish(topic, QoS::AtLeastOnce, false, payload.to_string()).await.unwrap();
    }

    /// Waits for the broker's PUBACK of `n` messages.
    pub async fn acked(&mut self, n: usize) {
        for _ in 0..n {
            tokio::time::timeout(Duration::from_secs(60), self.acks.recv()).await.expect("PUBACK in time").unwrap();
        }
    }
}

/// Polls `check` every 250 ms until it gives a value, for at most `secs`.
pub async fn eventually<T, F: Future<Output = Option<T>>>(what: &str, secs: u64, mut check: impl FnMut() -> F) -> T {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(tokio::time::Instant::now() < deadline, "timed out after {secs} s waiting for {what}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// Heartbeats from `uplink` until ingest knows its gateway (its activity shows).
/// Sends BLE sightings of meter `ble` until ingest shows one: ingest knows
/// the meter (registry events reach it a moment after the registration).
pub async fn until_meter_known(operator: &Operator, uplink: &mut Uplink, ble: &str, meter_id: &str) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        uplink.send("ble", json!({"meter": ble, "rssi": -70})).await;
        let seen = operator.json(&format!("/api/proxy/wmeters/ble-activity/{meter_id}?max=1")).await;
        if !seen.as_array().unwrap().is_empty() {
            return;
        }
        assert!(tokio::time::Instant::now() < deadline, "ingest never learnt meter {ble}");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

pub async fn until_known(operator: &Operator, uplink: &mut Uplink, gateway_id: &str) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        uplink.send("heartbeat", json!({})).await;
        let activity = operator.json(&format!("/api/proxy/gateways/gateway-activity/{gateway_id}?max=1")).await;
        if !activity.as_array().unwrap().is_empty() {
            return;
        }
        assert!(tokio::time::Instant::now() < deadline, "ingest never learnt gateway {}", uplink.serial);
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// Reads the event stream `response` of `name` until a chunk holds
/// `needle`, for at most 60 s.
pub async fn receives(name: &str, response: reqwest::Response, needle: String) {
    let mut stream = response.bytes_stream();
    let mut seen = String::new();
    let found = tokio::time::timeout(Duration::from_secs(60), async {
        while let Some(chunk) = stream.next().await {
            seen.push_str(&String::from_utf8_lossy(&chunk.unwrap()));
            if seen.contains(&needle) {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(found, Ok(true), "{name} never sent {needle}; it sent:\n{seen}");
}
