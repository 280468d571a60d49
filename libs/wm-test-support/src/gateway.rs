//! A field gateway as a test plays it: an MQTT client that publishes
//! uplinks at QoS 1, counts the broker's acknowledgements, and receives the
//! valve commands sent to it.

use std::{net::SocketAddr, time::Duration};

use rumqttc::{AsyncClient, Event, LastWill, MqttOptions, Outgoing, Packet, QoS};
use serde_json::Value;
use tokio::{sync::mpsc, task::JoinHandle};
use wm_storage::{Db, with_pool};

use crate::eventually;

/// A deployment gateways reach: its broker's address and the gateways'
/// login, and its database, which tests read.
pub trait Deployment {
    fn broker(&self) -> Option<(SocketAddr, (String, String))>;
    fn db(&self) -> &Db;
}

/// A gateway on a deployment's broker.
#[allow(missing_debug_implementations)] // holds an MQTT client
pub struct Gateway {
    pub serial: String,
    client: AsyncClient,
    acked: mpsc::UnboundedReceiver<()>,
    commands: mpsc::UnboundedReceiver<Value>,
    driver: JoinHandle<()>,
}

impl Gateway {
    /// Connects as gateway `serial` to `app`'s broker, with its last will.
    pub async fn connect(app: &impl Deployment, serial: &str) -> Gateway {
        let (addr, (username, password)) = app.broker().expect("a broker");
        let mut options = MqttOptions::new(format!("gw-{serial}"), addr.ip().to_string(), addr.port());
        options
            .set_credentials(username, password)
            .set_keep_alive(Duration::from_secs(30))
            .set_inflight(100)
            .set_max_packet_size(2 * 1024 * 1024, 2 * 1024 * 1024)
            .set_last_will(LastWill::new(topic(serial, "status"), r#"{"status":"offline"}"#, QoS::AtLeastOnce, true));
        let (client, mut eventloop) = AsyncClient::new(options, 20_000);
        let (tx, acked) = mpsc::unbounded_channel();
        let (command_tx, commands) = mpsc::unbounded_channel();
        let (connected_tx, connected) = tokio::sync::oneshot::channel();
        let mut connected_tx = Some(connected_tx);
        let driver = tokio::spawn(async move {
            loop {
                match eventloop.poll().await {
                    Ok(Event::Incoming(Packet::ConnAck(_))) => {
                        if let Some(tx) = connected_tx.take() {
                            let _ = tx.send(());
                        }
                    }
                    Ok(Event::Incoming(Packet::PubAck(_))) => {
                        let _ = tx.send(());
                    }
                    Ok(Event::Incoming(Packet::Publish(p))) => {
                        let _ = command_tx.send(serde_json::from_slice(&p.payload).unwrap_or(Value::Null));
                    }
                    Ok(Event::Outgoing(Outgoing::Publish(_)) | _) => {}
                    Err(e) => panic!("gateway connection failed: {e}"),
                }
            }
        });
        tokio::time::timeout(Duration::from_secs(10), connected).await.expect("connects").unwrap();
        client.subscribe(topic(serial, "cmd"), QoS::AtLeastOnce).await.unwrap();
        Gateway { serial: serial.to_owned(), client, acked, commands, driver }
    }

    /// Publishes `payload` on `kind` at QoS 1 (retained for a status).
    pub async fn send(&self, kind: &str, payload: impl Into<Vec<u8>>) {
        self.client.publish(topic(&self.serial, kind), QoS::AtLeastOnce, kind == "status", payload).await.unwrap();
    }

    /// Waits until the broker acknowledged `n` more messages.
    pub async fn acked(&mut self, n: usize) {
        for _ in 0..n {
            tokio::time::timeout(Duration::from_secs(30), self.acked.recv()).await.expect("PUBACK in time").unwrap();
        }
    }

    /// The next command published on this gateway's `cmd` topic.
    pub async fn command(&mut self) -> Value {
        tokio::time::timeout(Duration::from_secs(30), self.commands.recv()).await.expect("a command in time").unwrap()
    }

    /// Fails if a command arrives within `wait`.
    pub async fn no_command_within(&mut self, wait: Duration) {
        if let Ok(command) = tokio::time::timeout(wait, self.commands.recv()).await {
            panic!("an unexpected command: {command:?}");
        }
    }

    /// Drops the connection without a DISCONNECT, as a crash would: the
    /// broker publishes the last will.
    pub fn crash(self) {
        self.driver.abort();
    }
}

pub fn topic(serial: &str, kind: &str) -> String {
    format!("wmeter/v1/gw/{serial}/{kind}")
}

/// Waits until ingest knows `gateways` and `meters` (its directory is fed
/// by the registry's events) in `app`'s database.
pub async fn known(app: &impl Deployment, gateways: i64, meters: i64) {
    eventually("ingest knows the devices", || async {
        let count = |table: &'static str| {
            let sql = format!("SELECT COUNT(*) FROM {table}");
            async move {
                with_pool!(app.db(), pool => sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql)).fetch_one(pool).await)
                    .unwrap()
            }
        };
        (count("ingest_gateways").await >= gateways && count("ingest_meters").await >= meters).then_some(())
    })
    .await;
}
