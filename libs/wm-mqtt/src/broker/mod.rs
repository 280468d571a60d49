//! The embedded MQTT broker of `wmeter serve`: MQTT 3.1.1 on one TCP
//! listener, QoS 0 and 1, retained messages, last wills and persistent
//! sessions, all in memory. Who may connect, and what each client may
//! publish and subscribe to, is its [`Authenticator`]'s to say.
//!
//! It keeps nothing on disk, so it acknowledges a QoS 1 publish only once
//! the durable session (ingest's) has acknowledged every copy it got, and
//! ingest acknowledges only what it has stored. A crash loses no message a
//! gateway was told is stored: the gateway sends the rest again. Ingest in
//! the same process takes the durable session without MQTT packets
//! ([`EmbeddedBroker::take_durable`]).

mod access;
mod connection;
mod local;
mod router;
mod session;
mod tls;

use std::{net::SocketAddr, sync::Arc};

use tokio::{net::TcpListener, sync::Semaphore};
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;

pub use access::{Access, Attempt, Authenticator, Refusal};
pub use local::{LocalDelivery, LocalSession};
pub use router::Durable;
pub use tls::{TlsError, TlsListener, fingerprint, server_config};

use self::{connection::Shared, router::Router};

/// The largest packet the broker takes. Larger than the contract's payload
/// limit, so an oversized uplink reaches ingest and is dead-lettered with its
/// reason instead of silently cutting the gateway's connection.
pub const MAX_PACKET_BYTES: usize = 2 * 1024 * 1024;

/// How long a TLS client has to finish its handshake.
const HANDSHAKE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Connections served at once; more are closed as they arrive.
const MAX_CONNECTIONS: usize = 10_010;

#[derive(Debug, thiserror::Error)]
pub enum BrokerError {
    #[error("{key}: cannot listen on {addr}: {source}")]
    Bind { key: &'static str, addr: SocketAddr, source: std::io::Error },
}

/// A running embedded broker (a clone is a handle on the same one).
#[derive(Clone, Debug)]
pub struct EmbeddedBroker {
    addr: SocketAddr,
    tls_addr: Option<SocketAddr>,
    stop: CancellationToken,
    shared: Arc<Shared>,
}

impl EmbeddedBroker {
    /// Starts listening on `listen` (port 0 picks a free port), and with
    /// TLS on `tls` if given; admits the clients `auth` authenticates, and
    /// keeps `durable`'s session from the start.
    pub async fn start(
        listen: SocketAddr,
        tls: Option<TlsListener>,
        auth: Arc<dyn Authenticator>,
        durable: Durable,
    ) -> Result<Self, BrokerError> {
        let (listener, addr) = bind("mqtt.listen", listen).await?;
        let stop = CancellationToken::new();
        let shared = Arc::new(Shared { router: Router::new(durable), auth, stop: stop.clone() });
        let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
        tokio::spawn(accept(listener, None, shared.clone(), slots.clone()));
        tracing::info!(%addr, "embedded MQTT broker listening");
        let tls_addr = match tls {
            Some(tls) => {
                let (listener, tls_addr) = bind("mqtt.tls.listen", tls.listen).await?;
                let acceptor = TlsAcceptor::from(tls.config);
                tokio::spawn(accept(listener, Some(acceptor), shared.clone(), slots));
                tracing::info!(addr = %tls_addr, "embedded MQTT broker listening with TLS");
                Some(tls_addr)
            }
            None => None,
        };
        Ok(Self { addr, tls_addr, stop, shared })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The TLS listener's address, when there is one.
    pub fn tls_addr(&self) -> Option<SocketAddr> {
        self.tls_addr
    }

    /// Takes the durable session for ingest in this process, or `None`
    /// while a network connection holds it. Dropping it gives the session
    /// back, with the messages not taken yet.
    pub fn take_durable(&self) -> Option<LocalSession> {
        LocalSession::attach(self.shared.clone())
    }

    /// Publishes at QoS 1 from inside the process (valve commands), as a
    /// client allowed everything would.
    pub fn publish(&self, topic: String, payload: Vec<u8>) {
        let publish = rumqttc::Publish::new(topic, rumqttc::QoS::AtLeastOnce, payload);
        self.shared.router.publish(&publish, None);
    }

    /// Closes the connections of `identity` (its credential was revoked),
    /// without their wills.
    pub fn disconnect(&self, identity: &str) {
        self.shared.router.disconnect(identity);
    }

    /// Stops accepting connections, closes the open ones, frees the port.
    pub fn stop(&self) {
        self.stop.cancel();
    }
}

async fn bind(key: &'static str, listen: SocketAddr) -> Result<(TcpListener, SocketAddr), BrokerError> {
    let listener = TcpListener::bind(listen).await.map_err(|source| BrokerError::Bind { key, addr: listen, source })?;
    let addr = listener.local_addr().map_err(|source| BrokerError::Bind { key, addr: listen, source })?;
    Ok((listener, addr))
}

/// Accepts connections on `listener` (through TLS with `tls`), within the
/// connection slots both listeners share.
async fn accept(listener: TcpListener, tls: Option<TlsAcceptor>, shared: Arc<Shared>, slots: Arc<Semaphore>) {
    loop {
        let accepted = tokio::select! {
            () = shared.stop.cancelled() => return,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors, most likely: let some close.
                tracing::warn!(error = %e, "the embedded MQTT broker cannot accept a connection");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            }
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            tracing::warn!(%peer, limit = MAX_CONNECTIONS, "too many MQTT connections, one refused");
            continue;
        };
        let (shared, tls) = (shared.clone(), tls.clone());
        tokio::spawn(async move {
            let _ = stream.set_nodelay(true);
            match tls {
                None => connection::serve(stream.into_split(), peer, None, shared).await,
                Some(acceptor) => {
                    let handshake = tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(stream)).await;
                    match handshake {
                        Ok(Ok(stream)) => {
                            let certificate = stream.get_ref().1.peer_certificates().and_then(|c| c.first());
                            let certificate = certificate.map(|c| c.to_vec());
                            connection::serve(tokio::io::split(stream), peer, certificate, shared).await;
                        }
                        Ok(Err(e)) => tracing::info!(%peer, error = %e, "MQTT TLS handshake refused"),
                        Err(_) => tracing::debug!(%peer, "MQTT TLS handshake not done in time"),
                    }
                }
            }
            drop(slot);
        });
    }
}
