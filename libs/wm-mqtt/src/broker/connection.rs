//! One client's TCP connection: the CONNECT handshake, then one task that
//! reads packets, writes what is due, and watches the keep-alive.

use std::{net::SocketAddr, sync::Arc, time::Duration};

use bytes::{Buf, BytesMut};
use rumqttc::{
    ConnAck, ConnectReturnCode, Packet, PubAck, Publish, QoS, SubAck, SubscribeReasonCode, UnsubAck, valid_topic,
};
use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt},
    sync::mpsc,
    time::Instant,
};
use tokio_util::sync::CancellationToken;

use super::{
    MAX_PACKET_BYTES,
    access::{Access, Attempt, Authenticator, Refusal},
    router::{Attach, QUEUE_LIMIT, Router, lower},
    session::{Acker, Held, Message, Outbound, Session},
};

/// How long a new connection has to send its CONNECT.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a CONNECT waits for an older connection with its client id to
/// let go of the session.
const TAKEOVER_TIMEOUT: Duration = Duration::from_secs(5);
/// Messages a client that is not ingest may have unacknowledged.
const CLIENT_WINDOW: usize = 100;
/// A client's QoS 1 publishes still waiting for ingest: past this, the
/// connection is not read until some are acknowledged.
const HELD_LIMIT: usize = 1_000;
/// Spare room kept in the input buffer for each read.
const READ_CHUNK: usize = 16 * 1024;
/// Bytes waiting to be written past which the connection is not read.
const OUTPUT_LIMIT: usize = 4 * 1024 * 1024;

/// What the broker's connections share.
#[derive(Debug)]
pub struct Shared {
    pub router: Router,
    pub auth: Arc<dyn Authenticator>,
    pub stop: CancellationToken,
}

/// Why a connection ended: only a lost one publishes the client's will.
enum End {
    Disconnected,
    TakenOver,
    Stopped,
    Lost(String),
}

/// Serves one client, over the two halves of its connection, until it
/// disconnects, is lost, or the broker stops. `certificate` is the client
/// certificate (DER) a TLS listener verified, if any.
pub async fn serve<R, W>(
    (mut reader, mut writer): (R, W),
    peer: SocketAddr,
    certificate: Option<Vec<u8>>,
    shared: Arc<Shared>,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut input = BytesMut::with_capacity(8 * 1024);
    let connect = match tokio::time::timeout(CONNECT_TIMEOUT, read_packet(&mut reader, &mut input)).await {
        Ok(Ok(Packet::Connect(connect))) => connect,
        Ok(Ok(other)) => return tracing::debug!(%peer, packet = ?other, "MQTT: the first packet was not a CONNECT"),
        Ok(Err(e)) => return tracing::debug!(%peer, error = %e, "MQTT: cannot read CONNECT"),
        Err(_) => return tracing::debug!(%peer, "MQTT: no CONNECT in time"),
    };
    if connect.protocol != rumqttc::Protocol::V4 {
        return refuse(&mut writer, ConnectReturnCode::RefusedProtocolVersion).await;
    }
    let login = connect.login.as_ref();
    let attempt = Attempt {
        peer,
        client_id: &connect.client_id,
        username: login.map(|l| l.username.as_str()),
        password: login.map(|l| l.password.as_str()),
        certificate: certificate.as_deref(),
    };
    let Some(access) = shared.auth.authenticate(&attempt).await else {
        tracing::info!(%peer, username = attempt.username, "MQTT login refused");
        shared.auth.refused("", peer, Refusal::Connect);
        return refuse(&mut writer, ConnectReturnCode::BadUserNamePassword).await;
    };
    let bound_elsewhere = access.client_id.as_ref().is_some_and(|id| *id != connect.client_id);
    if (connect.client_id.is_empty() && !connect.clean_session) || bound_elsewhere {
        tracing::info!(%peer, identity = access.identity, client = connect.client_id, "MQTT client id refused");
        shared.auth.refused(&access.identity, peer, Refusal::Connect);
        return refuse(&mut writer, ConnectReturnCode::BadClientId).await;
    }
    let client_id = match connect.client_id.as_str() {
        "" => format!("anonymous-{:016x}", rand::random::<u64>()),
        id => id.to_owned(),
    };
    let (tx, mut rx) = mpsc::unbounded_channel();
    let deadline = Instant::now() + TAKEOVER_TIMEOUT;
    let (connection, session, present, durable) = loop {
        let released = shared.router.released();
        match shared.router.attach(&client_id, &access.identity, connect.clean_session, &tx) {
            Attach::Attached { connection, session, present, durable } => {
                break (connection, session, present, durable);
            }
            Attach::Foreign => {
                tracing::warn!(%peer, identity = access.identity, client = client_id, "MQTT client id held by another identity");
                shared.auth.refused(&access.identity, peer, Refusal::Connect);
                return refuse(&mut writer, ConnectReturnCode::BadClientId).await;
            }
            Attach::Busy if Instant::now() < deadline => {
                let _ = tokio::time::timeout(Duration::from_millis(100), released).await;
            }
            Attach::Busy => return refuse(&mut writer, ConnectReturnCode::ServiceUnavailable).await,
        }
    };
    // Asked again now that the session is live: a credential revoked since
    // the first answer is refused here, or else its revocation, coming
    // after, finds this connection and closes it.
    if shared.auth.authenticate(&attempt).await.as_ref() != Some(&access) {
        tracing::info!(%peer, identity = access.identity, "MQTT credential revoked while connecting");
        shared.auth.refused(&access.identity, peer, Refusal::Connect);
        shared.router.detach(&client_id, connection, session, &mut rx);
        return refuse(&mut writer, ConnectReturnCode::NotAuthorized).await;
    }
    let mut link = Link {
        shared: shared.clone(),
        peer,
        access,
        client_id,
        session,
        tx,
        held: Held::new(connection, shared.router.total().clone()),
        durable,
        output: BytesMut::with_capacity(8 * 1024),
        window: shared.router.window(durable, CLIENT_WINDOW),
    };
    link.write(Packet::ConnAck(ConnAck::new(ConnectReturnCode::Success, present)));
    for publish in link.session.unacknowledged() {
        link.write(Packet::Publish(publish));
    }
    tracing::debug!(%peer, client = link.client_id, identity = link.access.identity, "MQTT client connected");
    let keep_alive = Duration::from_millis(u64::from(connect.keep_alive) * 1_500);
    let end = link.run(&mut reader, &mut writer, &mut input, &mut rx, keep_alive).await;
    if let End::Lost(reason) = &end {
        tracing::debug!(%peer, client = link.client_id, reason, "MQTT client lost");
        let will = connect.last_will.as_ref().filter(|w| !w.topic.is_empty() && valid_topic(&w.topic));
        if let Some(will) = will.filter(|w| link.allowed(&w.topic)) {
            let mut publish =
                Publish::from_bytes(will.topic.clone(), lower(will.qos, QoS::AtLeastOnce), will.message.clone());
            publish.retain = will.retain;
            shared.router.publish(&publish, None);
        }
    }
    let Link { client_id, session, .. } = link;
    shared.router.detach(&client_id, connection, session, &mut rx);
    let _ = writer.shutdown().await;
}

/// A connected client's side of the broker.
struct Link {
    shared: Arc<Shared>,
    peer: SocketAddr,
    access: Access,
    client_id: String,
    session: Session,
    /// Reaches this connection's task: acknowledgements and deliveries.
    tx: mpsc::UnboundedSender<Outbound>,
    /// The client's publishes whose acknowledgement waits for ingest.
    held: Held,
    /// Whether this is the durable session's connection: it acknowledges
    /// what the others wait for, so the total never stops it being read.
    durable: bool,
    /// Encoded packets not written yet.
    output: BytesMut,
    window: usize,
}

impl Link {
    async fn run(
        &mut self,
        reader: &mut (impl AsyncRead + Unpin),
        writer: &mut (impl AsyncWrite + Unpin),
        input: &mut BytesMut,
        rx: &mut mpsc::UnboundedReceiver<Outbound>,
        keep_alive: Duration,
    ) -> End {
        let mut last_heard = Instant::now();
        // Its own handle: a waiting `Notified` borrows it across the loop.
        let total = self.held.total().clone();
        loop {
            let left = match self.handle_input(input) {
                Ok(left) => left,
                Err(end) => return end,
            };
            while self.output.len() < OUTPUT_LIMIT {
                let Some(publish) = self.session.next(self.window) else { break };
                self.write(Packet::Publish(publish));
            }
            let mut room = self.has_room();
            // Waiting for other publishers' messages to be acknowledged:
            // armed before asking again, so that a release in between wakes it.
            let freed = total.freed();
            tokio::pin!(freed);
            let mut waiting = false;
            if !room && self.held.mine() < HELD_LIMIT {
                freed.as_mut().enable();
                room = self.has_room();
                waiting = !room;
            }
            if room && left {
                // The room came back after the packets read were left for
                // want of it. Nothing else may come to wake this task: the
                // client may be waiting for the acknowledgements of exactly
                // those publishes, and send nothing until its keep-alive.
                continue;
            }
            if !room {
                // The client's silence while it is not read is the broker's:
                // its keep-alive runs again, whole, once it is read.
                last_heard = Instant::now();
            }
            let readable = room && self.output.len() < OUTPUT_LIMIT;
            // Reads fill the spare capacity; without this, a buffer split
            // by many packets would be read 64 bytes at a time.
            input.reserve(READ_CHUNK);
            let silent_until = last_heard + keep_alive;
            tokio::select! {
                () = self.shared.stop.cancelled() => return End::Stopped,
                outbound = rx.recv() => match outbound {
                    Some(Outbound::PubAck(pkid)) => self.write(Packet::PubAck(PubAck::new(pkid))),
                    Some(Outbound::Deliver(message)) => self.deliver(message),
                    Some(Outbound::TakenOver) | None => return End::TakenOver,
                },
                written = writer.write(&self.output), if !self.output.is_empty() => match written {
                    Ok(0) => return End::Lost("connection closed".into()),
                    Ok(n) => self.output.advance(n),
                    Err(e) => return End::Lost(e.to_string()),
                },
                read = reader.read_buf(input), if readable => match read {
                    Ok(0) => return End::Lost("connection closed".into()),
                    Ok(_) => last_heard = Instant::now(),
                    Err(e) => return End::Lost(e.to_string()),
                },
                () = &mut freed, if waiting => {}
                () = tokio::time::sleep_until(silent_until), if room && !keep_alive.is_zero() => {
                    return End::Lost("keep-alive expired".into());
                }
            }
        }
    }

    /// Handles the complete packets read so far, while the client may have
    /// more publishes waiting for ingest; true when some input is left for
    /// want of room.
    fn handle_input(&mut self, input: &mut BytesMut) -> Result<bool, End> {
        while self.has_room() {
            match Packet::read(input, MAX_PACKET_BYTES) {
                Ok(packet) => self.handle(packet)?,
                Err(rumqttc::Error::InsufficientBytes(_)) => return Ok(false),
                Err(e) => return Err(End::Lost(format!("malformed packet: {e}"))),
            }
        }
        Ok(!input.is_empty())
    }

    /// Whether another publish of this client may be taken: it holds fewer
    /// than [`HELD_LIMIT`] waiting for ingest, and all publishers together
    /// fewer than the durable session's total.
    fn has_room(&self) -> bool {
        self.held.mine() < HELD_LIMIT && (self.durable || !self.held.total().full())
    }

    fn handle(&mut self, packet: Packet) -> Result<(), End> {
        match packet {
            Packet::Publish(publish) => self.publish(publish)?,
            Packet::PubAck(ack) => self.session.acked(ack.pkid),
            Packet::Subscribe(subscribe) => {
                let mut filters = Vec::with_capacity(subscribe.filters.len());
                for filter in subscribe.filters {
                    if self.access.may_subscribe(&filter.path) {
                        filters.push((filter.path, filter.qos));
                    } else {
                        self.shared.auth.refused(&self.access.identity, self.peer, Refusal::Subscribe(&filter.path));
                        filters.push((String::new(), filter.qos));
                    }
                }
                // An empty filter is invalid: the router refuses it in place.
                let (granted, retained) = self.shared.router.subscribe(&self.client_id, &filters);
                let codes =
                    granted.into_iter().map(|q| q.map_or(SubscribeReasonCode::Failure, SubscribeReasonCode::Success));
                self.write(Packet::SubAck(SubAck::new(subscribe.pkid, codes.collect())));
                for message in retained {
                    self.deliver(message);
                }
            }
            Packet::Unsubscribe(unsubscribe) => {
                self.shared.router.unsubscribe(&self.client_id, &unsubscribe.topics);
                self.write(Packet::UnsubAck(UnsubAck::new(unsubscribe.pkid)));
            }
            Packet::PingReq => self.write(Packet::PingResp),
            Packet::Disconnect => return Err(End::Disconnected),
            other => return Err(End::Lost(format!("unexpected packet {other:?}"))),
        }
        Ok(())
    }

    fn publish(&mut self, publish: Publish) -> Result<(), End> {
        if publish.topic.is_empty() || !valid_topic(&publish.topic) {
            return Err(End::Lost(format!("invalid topic {:?}", publish.topic)));
        }
        if !self.allowed(&publish.topic) {
            // Acknowledged and dropped, as Mosquitto does: MQTT 3.1.1 has no
            // refusal, and a gateway told nothing would send it for ever.
            if publish.qos == QoS::AtLeastOnce {
                self.write(Packet::PubAck(PubAck::new(publish.pkid)));
            }
            return Ok(());
        }
        match publish.qos {
            QoS::AtMostOnce => self.shared.router.publish(&publish, None),
            QoS::AtLeastOnce => {
                let ack = Acker::new(publish.pkid, self.tx.clone(), self.held.clone());
                self.shared.router.publish(&publish, Some(ack));
            }
            QoS::ExactlyOnce => return Err(End::Lost("QoS 2 is not supported".into())),
        }
        Ok(())
    }

    /// Whether the client may publish on `topic`; a refusal is reported.
    fn allowed(&self, topic: &str) -> bool {
        let allowed = self.access.may_publish(topic);
        if !allowed {
            self.shared.auth.refused(&self.access.identity, self.peer, Refusal::Publish(topic));
        }
        allowed
    }

    fn deliver(&mut self, message: Message) {
        if !self.session.push(message, QUEUE_LIMIT) {
            tracing::debug!(client = self.client_id, "MQTT client too slow, message dropped");
        }
    }

    fn write(&mut self, packet: Packet) {
        // Every packet the broker builds fits: deliveries are at most as
        // large as the publishes they copy.
        if let Err(e) = packet.write(&mut self.output, usize::MAX) {
            tracing::warn!(client = self.client_id, error = %e, "cannot encode an MQTT packet");
        }
    }
}

/// Answers a CONNECT with a refusal.
async fn refuse(writer: &mut (impl AsyncWrite + Unpin), code: ConnectReturnCode) {
    let mut output = BytesMut::new();
    let _ = ConnAck::new(code, false).write(&mut output);
    let _ = writer.write_all(&output).await;
}

/// Reads one whole packet (for the CONNECT).
async fn read_packet(reader: &mut (impl AsyncRead + Unpin), input: &mut BytesMut) -> Result<Packet, rumqttc::Error> {
    loop {
        match Packet::read(input, MAX_PACKET_BYTES) {
            Err(rumqttc::Error::InsufficientBytes(_)) => {
                if reader.read_buf(input).await? == 0 {
                    return Err(rumqttc::Error::Io(std::io::ErrorKind::UnexpectedEof.into()));
                }
            }
            result => return result,
        }
    }
}
