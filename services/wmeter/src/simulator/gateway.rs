//! One simulated gateway's MQTT connection: its last will, its retained
//! status, and the acks it sends for the valve commands it receives.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use chrono::{DateTime, Utc};
use rumqttc::{AsyncClient, Event, LastWill, MqttOptions, Packet, QoS};
use serde_json::{Value, json};
use tokio::task::JoinHandle;

use wm_uplink::topic;

use super::Broker;

/// A connected simulated gateway.
#[derive(Debug)]
pub struct Connection {
    serial: String,
    client: AsyncClient,
    driver: JoinHandle<()>,
    next_id: Arc<AtomicU64>,
}

impl Connection {
    /// Connects as gateway `serial`; the connection comes back by itself
    /// after a broker restart. `acked` counts the commands it acknowledged.
    pub fn open(serial: &str, broker: &Broker, next_id: Arc<AtomicU64>, acked: Arc<AtomicU64>) -> Self {
        let (client_id, username, password) = broker.sign_in.of(serial);
        let mut options = MqttOptions::new(client_id, &broker.host, broker.port);
        options.set_credentials(username, password).set_keep_alive(Duration::from_secs(30)).set_last_will(
            LastWill::new(
                topic::uplink(serial, topic::Kind::Status),
                json!({"status": "offline"}).to_string(),
                QoS::AtLeastOnce,
                true,
            ),
        );
        let (client, mut eventloop) = AsyncClient::new(options, 256);
        let (serial_owned, driver_client, ids) = (serial.to_owned(), client.clone(), next_id.clone());
        let driver = tokio::spawn(async move {
            loop {
                match eventloop.poll().await {
                    Ok(Event::Incoming(Packet::ConnAck(_))) => {
                        let status = json!({"status": "online", "messageId": ids.fetch_add(1, Ordering::Relaxed), "timestamp": Utc::now().to_rfc3339()});
                        let _ = driver_client.try_publish(
                            topic::uplink(&serial_owned, topic::Kind::Status),
                            QoS::AtLeastOnce,
                            true,
                            status.to_string(),
                        );
                        let _ = driver_client.try_subscribe(topic::commands(&serial_owned), QoS::AtLeastOnce);
                    }
                    Ok(Event::Incoming(Packet::Publish(command))) => {
                        let command: Value = serde_json::from_slice(&command.payload).unwrap_or_default();
                        let Some(command_id) = command["commandId"].as_str() else { continue };
                        let ack = json!({"messageId": ids.fetch_add(1, Ordering::Relaxed), "timestamp": Utc::now().to_rfc3339(), "commandId": command_id, "ok": true});
                        if driver_client
                            .try_publish(
                                topic::uplink(&serial_owned, topic::Kind::Ack),
                                QoS::AtLeastOnce,
                                false,
                                ack.to_string(),
                            )
                            .is_ok()
                        {
                            acked.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    Ok(_) => {}
                    Err(e) => {
                        tracing::debug!(gateway = serial_owned, error = %e, "simulated gateway reconnecting");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
        });
        Self { serial: serial.to_owned(), client, driver, next_id }
    }

    /// Publishes `body` (with a fresh message id and the time) on `kind`.
    pub async fn send(&self, kind: topic::Kind, body: Value) -> Result<(), rumqttc::ClientError> {
        self.send_measured(kind, body, self.next_id.fetch_add(1, Ordering::Relaxed), Utc::now()).await
    }

    /// Publishes `body` on `kind` as message `message_id`, measured `at`
    /// (what a gateway uploads late).
    pub async fn send_measured(
        &self,
        kind: topic::Kind,
        mut body: Value,
        message_id: u64,
        at: DateTime<Utc>,
    ) -> Result<(), rumqttc::ClientError> {
        body["messageId"] = json!(message_id);
        body["timestamp"] = json!(at.to_rfc3339());
        self.client.publish(topic::uplink(&self.serial, kind), QoS::AtLeastOnce, false, body.to_string()).await
    }

    /// Drops the connection without a DISCONNECT: the broker publishes the
    /// last will, and the gateway goes quiet.
    pub fn fall_silent(self) {
        self.driver.abort();
    }

    /// Disconnects cleanly, or within a second drops the connection: a
    /// DISCONNECT waits behind what the connection has not sent yet, which
    /// is forever once the broker is gone or has stopped reading.
    pub async fn close(self) {
        if tokio::time::timeout(Duration::from_secs(1), self.client.disconnect()).await.is_ok() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        self.driver.abort();
    }
}
