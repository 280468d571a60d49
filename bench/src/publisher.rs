//! The one MQTT publisher both sides of the ingest ratio use: one rumqttc
//! connection per gateway, QoS 1, each sending its share as fast as the
//! broker acknowledges.

use tokio::time::{Duration, Instant};

use anyhow::Context;
use chrono::{SecondsFormat, Utc};
use rumqttc::{AsyncClient, Event, MqttOptions, Packet, QoS};
use tokio::task::JoinSet;

/// Where the publishers connect, and as whom.
#[derive(Clone, Debug)]
pub struct Broker {
    pub port: u16,
    pub username: String,
    pub password: String,
}

/// A message whose time is written as it is sent. A gateway times a
/// reading when it takes it, so a network's readings reach ingest in about
/// their time order; made ahead of a run, as the loads are, they would all
/// carry the instant they were made, and each batch would land all over the
/// indexes by time instead of at their end.
#[derive(Clone, Debug)]
pub struct Payload {
    bytes: Vec<u8>,
    /// Where [`TIME_SLOT`] is in `bytes`, if anywhere.
    slot: Option<usize>,
}

/// The place of a payload's time until it is sent: as long as the time
/// written there (RFC 3339 in milliseconds, UTC).
pub const TIME_SLOT: &str = "0000-00-00T00:00:00.000Z";

impl Payload {
    pub fn new(bytes: Vec<u8>) -> Self {
        let slot = bytes.windows(TIME_SLOT.len()).position(|w| w == TIME_SLOT.as_bytes());
        Self { bytes, slot }
    }

    /// The bytes to send, timed now by `clock`.
    pub fn stamped(mut self, clock: &mut Clock) -> Vec<u8> {
        if let Some(at) = self.slot {
            self.bytes[at..at + TIME_SLOT.len()].copy_from_slice(clock.now());
        }
        self.bytes
    }
}

/// The time payloads are stamped with, written out once a millisecond: a
/// publisher sends several messages a millisecond, and formatting each
/// one's time would slow the raw reference more than what it measures.
#[derive(Debug, Default)]
pub struct Clock {
    millis: i64,
    text: String,
}

impl Clock {
    fn now(&mut self) -> &[u8] {
        let now = Utc::now();
        if now.timestamp_millis() != self.millis || self.text.is_empty() {
            self.millis = now.timestamp_millis();
            self.text = now.to_rfc3339_opts(SecondsFormat::Millis, true);
        }
        self.text.as_bytes()
    }
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
/// payload at QoS 1, timed as it is sent, and returns once the broker
/// acknowledged them all: as fast as the broker acknowledges, or at `pace`
/// messages a second per connection.
pub async fn publish_all(
    broker: &Broker,
    connections: Vec<(String, String, Vec<Payload>)>,
    pace: Option<f64>,
) -> anyhow::Result<()> {
    let mut tasks = JoinSet::new();
    for (client_id, topic, payloads) in connections {
        let options = options(broker, &client_id);
        tasks.spawn(async move {
            let (client, mut eventloop) = AsyncClient::new(options, usize::from(INFLIGHT) * 2);
            let expected = payloads.len();
            let sender = tokio::spawn(async move {
                let (started, mut clock) = (Instant::now(), Clock::default());
                for (i, payload) in payloads.into_iter().enumerate() {
                    if let Some(per_second) = pace {
                        tokio::time::sleep_until(started + Duration::from_secs_f64(i as f64 / per_second)).await;
                    }
                    client.publish(topic.clone(), QoS::AtLeastOnce, false, payload.stamped(&mut clock)).await?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_is_timed_as_it_is_sent() {
        let body = format!(r#"{{"messageId":1,"timestamp":"{TIME_SLOT}","record":1}}"#);
        let before = Utc::now();
        let sent: serde_json::Value =
            serde_json::from_slice(&Payload::new(body.into_bytes()).stamped(&mut Clock::default())).unwrap();
        let at = chrono::DateTime::parse_from_rfc3339(sent["timestamp"].as_str().unwrap()).unwrap();
        assert!(at >= before - chrono::Duration::milliseconds(1) && at <= Utc::now(), "{at} is not now");
        assert_eq!((sent["messageId"].as_u64(), sent["record"].as_u64()), (Some(1), Some(1)));
    }

    #[test]
    fn a_payload_without_a_time_slot_is_sent_as_made() {
        let body = br#"{"messageId":1,"record":1}"#.to_vec();
        assert_eq!(Payload::new(body.clone()).stamped(&mut Clock::default()), body);
    }
}
