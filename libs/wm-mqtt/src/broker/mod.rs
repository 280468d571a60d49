//! The embedded MQTT broker of `wmeter serve`: MQTT 3.1.1 on one TCP
//! listener, QoS 0 and 1, retained messages, last wills and persistent
//! sessions, all in memory. Who may connect, and what each client may
//! publish and subscribe to, is its [`Authenticator`]'s to say.
//!
//! It keeps nothing on disk, so it acknowledges a QoS 1 publish only once
//! the durable session (ingest's) has acknowledged every copy it got, and
//! ingest acknowledges only what it has stored. A crash loses no message a
//! gateway was told is stored: the gateway sends the rest again.

mod access;
mod connection;
mod router;
mod session;

use std::{net::SocketAddr, sync::Arc};

use tokio::{net::TcpListener, sync::Semaphore};
use tokio_util::sync::CancellationToken;

pub use access::{Access, Attempt, Authenticator, Refusal};
pub use router::Durable;

use self::{connection::Shared, router::Router};

/// The largest packet the broker takes. Larger than the contract's payload
/// limit, so an oversized uplink reaches ingest and is dead-lettered with its
/// reason instead of silently cutting the gateway's connection.
pub const MAX_PACKET_BYTES: usize = 2 * 1024 * 1024;

/// Connections served at once; more are closed as they arrive.
const MAX_CONNECTIONS: usize = 10_010;

#[derive(Debug, thiserror::Error)]
pub enum BrokerError {
    #[error("mqtt.listen: cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: std::io::Error },
}

/// A running embedded broker (a clone is a handle on the same one).
#[derive(Clone, Debug)]
pub struct EmbeddedBroker {
    addr: SocketAddr,
    stop: CancellationToken,
    shared: Arc<Shared>,
}

impl EmbeddedBroker {
    /// Starts listening on `listen` (port 0 picks a free port), admits the
    /// clients `auth` authenticates, and keeps `durable`'s session from the
    /// start.
    pub async fn start(
        listen: SocketAddr,
        auth: Arc<dyn Authenticator>,
        durable: Durable,
    ) -> Result<Self, BrokerError> {
        let listener = TcpListener::bind(listen).await.map_err(|source| BrokerError::Bind { addr: listen, source })?;
        let addr = listener.local_addr().map_err(|source| BrokerError::Bind { addr: listen, source })?;
        let stop = CancellationToken::new();
        let shared = Arc::new(Shared { router: Router::new(durable), auth, stop: stop.clone() });
        tokio::spawn(accept(listener, shared.clone()));
        tracing::info!(%addr, "embedded MQTT broker listening");
        Ok(Self { addr, stop, shared })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
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

async fn accept(listener: TcpListener, shared: Arc<Shared>) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
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
        let shared = shared.clone();
        tokio::spawn(async move {
            connection::serve(stream, peer, shared).await;
            drop(slot);
        });
    }
}
