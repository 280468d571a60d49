//! The one MQTT publisher both sides of the ingest ratio use: one rumqttc
//! connection per gateway, QoS 1, each sending its share as fast as the
//! broker acknowledges.

use tokio::time::{Duration, Instant};

use anyhow::Context;
use rumqttc::{AsyncClient, Event, MqttOptions, Packet, QoS};
use tokio::task::JoinSet;

/// Where the publishers connect, and as whom.
#[derive(Clone, Debug)]
pub struct Broker {
    pub port: u16,
    pub username: String,
    pub password: String,
}

/// Messages in flight per connection.
const INFLIGHT: u16 = 100;

pub fn options(broker: &Broker, client_id: &str) -> MqttOptions {
    let mut options = MqttOptions::new(client_id, "127.0.0.1", broker.port);
    options
        .set_credentials(&broker.username, &broker.password)
        .set_keep_alive(Duration::from_secs(30))
        .set_inflight(INFLIGHT)
        .set_max_packet_size(1 << 20, 1 << 20);
    options
}

/// Publishes, on each connection `(client id, topic, payloads)`, every
/// payload at QoS 1, and returns once the broker acknowledged them all:
/// as fast as the broker acknowledges, or at `pace` messages a second per
/// connection.
pub async fn publish_all(
    broker: &Broker,
    connections: Vec<(String, String, Vec<Vec<u8>>)>,
    pace: Option<f64>,
) -> anyhow::Result<()> {
    let mut tasks = JoinSet::new();
    for (client_id, topic, payloads) in connections {
        let options = options(broker, &client_id);
        tasks.spawn(async move {
            let (client, mut eventloop) = AsyncClient::new(options, usize::from(INFLIGHT) * 2);
            let expected = payloads.len();
            let sender = tokio::spawn(async move {
                let started = Instant::now();
                for (i, payload) in payloads.into_iter().enumerate() {
                    if let Some(per_second) = pace {
                        tokio::time::sleep_until(started + Duration::from_secs_f64(i as f64 / per_second)).await;
                    }
                    client.publish(topic.clone(), QoS::AtLeastOnce, false, payload).await?;
                }
                anyhow::Ok(client)
            });
            let mut acked = 0;
            while acked < expected {
                if let Event::Incoming(Packet::PubAck(_)) = eventloop.poll().await.context("publisher connection")? {
                    acked += 1;
                }
            }
            let client = sender.await??;
            client.disconnect().await?;
            anyhow::Ok(())
        });
    }
    while let Some(done) = tasks.join_next().await {
        done??;
    }
    Ok(())
}

/// One open connection, its event loop driven in the background; for
/// messages sent one at a time.
pub struct Connection {
    pub client: AsyncClient,
    events: tokio::task::JoinHandle<()>,
}

impl Connection {
    pub fn open(broker: &Broker, client_id: &str) -> Self {
        let (client, mut eventloop) = AsyncClient::new(options(broker, client_id), 16);
        let events = tokio::spawn(async move { while eventloop.poll().await.is_ok() {} });
        Self { client, events }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.events.abort();
    }
}
