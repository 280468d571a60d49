//! The embedded MQTT broker (rumqttd) of `wmeter serve`: MQTT 3.1.1 on one
//! TCP listener, with username and password logins.
//!
//! rumqttd's router runs on a thread of its own that lives as long as the
//! process; the listener runs on this runtime and is stopped by
//! [`EmbeddedBroker::stop`].

use std::{collections::HashMap, net::SocketAddr, time::Duration};

use rumqttd::{ConnectionSettings, LinkType, Router, RouterConfig, Server, ServerSettings, protocol::v4::V4};
use tokio::task::JoinHandle;

/// The largest packet the broker takes. Larger than the contract's payload
/// limit, so an oversized uplink reaches ingest and is dead-lettered with its
/// reason instead of silently cutting the gateway's connection.
pub const MAX_PACKET_BYTES: usize = 2 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum BrokerError {
    #[error("mqtt.listen: cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: std::io::Error },
    #[error("mqtt.listen: the broker did not start listening on {0}")]
    NotListening(SocketAddr),
}

/// A running embedded broker.
#[derive(Debug)]
pub struct EmbeddedBroker {
    addr: SocketAddr,
    listener: JoinHandle<()>,
}

impl EmbeddedBroker {
    /// Starts listening on `listen` (port 0 picks a free port) and admits
    /// the clients in `logins` (username → password).
    pub async fn start(listen: SocketAddr, logins: HashMap<String, String>) -> Result<Self, BrokerError> {
        // rumqttd binds inside its task and only logs a failure: bind here
        // first, so a taken port is an error the operator sees.
        let probe = std::net::TcpListener::bind(listen).map_err(|source| BrokerError::Bind { addr: listen, source })?;
        let addr = probe.local_addr().map_err(|source| BrokerError::Bind { addr: listen, source })?;
        drop(probe);
        let router = Router::new(0, router_config()).spawn();
        let settings = ServerSettings {
            name: "wmeter-mqtt".to_owned(),
            listen: addr,
            tls: None,
            next_connection_delay_ms: 1,
            connections: ConnectionSettings {
                connection_timeout_ms: 10_000,
                max_payload_size: MAX_PACKET_BYTES,
                max_inflight_count: 100,
                auth: Some(logins),
                external_auth: None,
                dynamic_filters: true,
            },
        };
        let mut server = Server::new(settings, router, V4);
        let listener = tokio::spawn(async move {
            if let Err(e) = server.start(LinkType::Remote).await {
                tracing::error!(error = ?e, %addr, "the embedded MQTT broker stopped");
            }
        });
        // A bind that fails now (the port taken since the probe) ends the task.
        tokio::time::sleep(Duration::from_millis(50)).await;
        if listener.is_finished() {
            return Err(BrokerError::NotListening(addr));
        }
        tracing::info!(%addr, "embedded MQTT broker listening");
        Ok(Self { addr, listener })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops accepting connections and frees the port.
    pub fn stop(&self) {
        self.listener.abort();
    }
}

/// The router's limits, from rumqttd's own defaults (its `Default` is all
/// zeros, which refuses every connection).
fn router_config() -> RouterConfig {
    RouterConfig {
        max_connections: 10_010,
        max_outgoing_packet_count: 200,
        max_segment_size: 100 * 1024 * 1024,
        max_segment_count: 10,
        ..RouterConfig::default()
    }
}
