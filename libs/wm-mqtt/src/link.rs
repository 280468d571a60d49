//! Ingest's way to its broker: a client connection (rumqttc), kept up with
//! backoff, or, when the broker is embedded in the same process, its
//! durable session taken directly. Deliveries are acknowledged by hand,
//! after they are stored: the session is persistent (`clean_session =
//! false`), so the broker redelivers what was not acknowledged when the
//! connection dropped.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use rumqttc::{AsyncClient, Event, EventLoop, MqttOptions, Packet, Publish, QoS};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::broker::{EmbeddedBroker, LocalDelivery, LocalSession, MAX_PACKET_BYTES};

/// Where and as whom to connect.
#[derive(Clone)]
pub struct Login {
    pub host: String,
    pub port: u16,
    pub client_id: String,
    pub username: String,
    pub password: String,
}

impl std::fmt::Debug for Login {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Login")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("client_id", &self.client_id)
            .field("username", &self.username)
            .finish_non_exhaustive()
    }
}

/// A message delivered to ingest. One from a connection may be
/// acknowledged only on that connection.
#[derive(Debug)]
pub enum Delivery {
    Remote { publish: Publish, connection: u64 },
    Local(LocalDelivery),
}

impl Delivery {
    pub fn topic(&self) -> &str {
        match self {
            Delivery::Remote { publish, .. } => &publish.topic,
            Delivery::Local(delivery) => delivery.topic(),
        }
    }

    pub fn payload(&self) -> &[u8] {
        match self {
            Delivery::Remote { publish, .. } => &publish.payload,
            Delivery::Local(delivery) => delivery.payload(),
        }
    }
}

/// Where deliveries come from: a connection's task, or the embedded
/// broker's durable session.
#[derive(Debug)]
pub enum Deliveries {
    Remote(mpsc::UnboundedReceiver<Delivery>),
    Local(LocalSession),
}

impl Deliveries {
    /// The next delivery; `None` once the connection or broker is gone.
    pub async fn recv(&mut self) -> Option<Delivery> {
        self.batch(1).await?.pop()
    }

    /// The next batch of at most `max` deliveries, waiting for the first;
    /// `None` once the connection or broker is gone. From a connection, in
    /// the order received (its acknowledgements must keep that order); from
    /// the embedded broker's session, a publisher's messages together
    /// ([`LocalSession::batch`]).
    pub async fn batch(&mut self, max: usize) -> Option<Vec<Delivery>> {
        match self {
            Deliveries::Remote(rx) => {
                let mut batch = vec![rx.recv().await?];
                while batch.len() < max {
                    match rx.try_recv() {
                        Ok(delivery) => batch.push(delivery),
                        Err(_) => break,
                    }
                }
                Some(batch)
            }
            Deliveries::Local(session) => Some(session.batch(max).await?.into_iter().map(Delivery::Local).collect()),
        }
    }
}

/// Ingest's side of the broker: publish, and acknowledge deliveries.
#[derive(Clone, Debug)]
pub enum Link {
    Remote { client: AsyncClient, connection: Arc<AtomicU64> },
    Local(EmbeddedBroker),
}

impl Link {
    /// Takes the durable session of `broker`, in this process; `None`
    /// while a network client holds it.
    pub fn local(broker: &EmbeddedBroker) -> Option<(Self, Deliveries)> {
        let session = broker.take_durable()?;
        Some((Link::Local(broker.clone()), Deliveries::Local(session)))
    }

    /// Connects (retrying until `stop`), subscribes to `filter` at QoS 1 on
    /// every connection, and sends what arrives on the returned channel.
    /// Messages are acknowledged by [`Link::ack`]; the broker sends at most
    /// its in-flight window of unacknowledged ones, so the channel needs no
    /// bound, and the connection must always be read: the acknowledgements
    /// go out through it.
    pub fn subscribe(login: &Login, filter: String, stop: CancellationToken) -> (Self, Deliveries) {
        let mut options = MqttOptions::new(&login.client_id, &login.host, login.port);
        options
            .set_credentials(&login.username, &login.password)
            .set_clean_session(false)
            .set_manual_acks(true)
            .set_keep_alive(Duration::from_secs(30))
            .set_max_packet_size(MAX_PACKET_BYTES + 1024, MAX_PACKET_BYTES + 1024);
        let (client, eventloop) = AsyncClient::new(options, 1024);
        let connection = Arc::new(AtomicU64::new(0));
        let (tx, rx) = mpsc::unbounded_channel();
        let link = Self::Remote { client: client.clone(), connection: connection.clone() };
        tokio::spawn(drive(eventloop, client, filter, connection, tx, stop));
        (link, Deliveries::Remote(rx))
    }

    /// Acknowledges `delivery`, unless it came on a connection that has
    /// since dropped (the broker delivers it again).
    pub async fn ack(&self, delivery: Delivery) -> Result<(), rumqttc::ClientError> {
        match (self, delivery) {
            (Link::Remote { client, connection: current }, Delivery::Remote { publish, connection }) => {
                if connection != current.load(Ordering::Acquire) {
                    return Ok(());
                }
                client.ack(&publish).await
            }
            (_, Delivery::Local(delivery)) => {
                delivery.ack();
                Ok(())
            }
            // A delivery is acknowledged on the link it came from; any
            // other one cannot, and the broker delivers it again.
            (Link::Local(_), Delivery::Remote { .. }) => Ok(()),
        }
    }

    /// Publishes at QoS 1 (queued until the connection is up).
    pub async fn publish(&self, topic: String, payload: Vec<u8>) -> Result<(), rumqttc::ClientError> {
        match self {
            Link::Remote { client, .. } => client.publish(topic, QoS::AtLeastOnce, false, payload).await,
            Link::Local(broker) => {
                broker.publish(topic, payload);
                Ok(())
            }
        }
    }
}

async fn drive(
    mut eventloop: EventLoop,
    client: AsyncClient,
    filter: String,
    connection: Arc<AtomicU64>,
    tx: mpsc::UnboundedSender<Delivery>,
    stop: CancellationToken,
) {
    let mut backoff = Duration::from_millis(100);
    loop {
        let event = tokio::select! {
            () = stop.cancelled() => {
                let _ = client.try_disconnect();
                return;
            }
            event = eventloop.poll() => event,
        };
        match event {
            Ok(Event::Incoming(Packet::ConnAck(_))) => {
                backoff = Duration::from_millis(100);
                let current = connection.fetch_add(1, Ordering::AcqRel) + 1;
                tracing::info!(connection = current, "connected to the MQTT broker");
                if let Err(e) = client.try_subscribe(filter.clone(), QoS::AtLeastOnce) {
                    tracing::warn!(error = %e, "cannot subscribe");
                }
            }
            Ok(Event::Incoming(Packet::Publish(publish))) => {
                let delivery = Delivery::Remote { publish, connection: connection.load(Ordering::Acquire) };
                if tx.send(delivery).is_err() {
                    return;
                }
            }
            Ok(_) => {}
            Err(e) => {
                tracing::warn!(error = %e, retry_in_ms = backoff.as_millis(), "MQTT connection lost");
                tokio::select! {
                    () = stop.cancelled() => return,
                    () = tokio::time::sleep(backoff) => {}
                }
                backoff = (backoff * 2).min(Duration::from_secs(10));
            }
        }
    }
}
