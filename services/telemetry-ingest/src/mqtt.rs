//! The MQTT side of the service: the embedded broker when configured, the
//! connection ingest consumes uplinks from (and publishes valve commands
//! on), the ingest worker and the valve-command dispatcher.

use std::sync::Arc;

use tokio::sync::broadcast::error::RecvError;
use tokio_util::sync::CancellationToken;
use wm_mqtt::{BrokerError, Durable, EmbeddedBroker, Link, Login, TlsListener};
use wm_uplink::topic::UPLINKS;

use crate::{MqttSettings, dispatch, identities::Identities, ingest, refusal_log::RefusalLog, state::IngestState};

/// The MQTT side, running: the embedded broker if any, and the connection
/// ingest consumes uplinks from (and publishes commands on).
#[derive(Debug)]
pub struct Mqtt {
    pub broker: Option<EmbeddedBroker>,
    pub link: Link,
    /// The shared login of gateways on the embedded broker, when
    /// `mqtt.gateway_password` opts in to it.
    pub gateway_login: Option<(String, String)>,
}

#[derive(Debug, thiserror::Error)]
pub enum MqttError {
    #[error(transparent)]
    Broker(#[from] BrokerError),
    #[error("{0}: {1}")]
    Settings(&'static str, String),
}

/// Starts the embedded broker when configured, connects, and spawns the
/// ingest worker; everything stops with `stop`.
pub async fn start(
    settings: &MqttSettings,
    tls: Option<TlsListener>,
    ingest: IngestState,
    stop: CancellationToken,
) -> Result<Mqtt, MqttError> {
    let (broker, gateway_login, (link, deliveries)) = if settings.is_embedded() {
        let listen =
            settings.listen.parse().map_err(|_| MqttError::Settings("mqtt.listen", settings.listen.clone()))?;
        let service = (settings.username.clone(), settings.password.clone().unwrap_or_else(random_secret));
        let gateways = settings.gateway_password.clone().map(|p| (settings.gateway_username.clone(), p));
        let durable = Durable {
            client_id: settings.client_id.clone(),
            identity: format!("service:{}", service.0),
            filter: UPLINKS.to_owned(),
            window: 4 * settings.batch,
            // The batch being stored and seven waiting, from all gateways
            // together: past it they wait in their sockets, not in memory.
            held: 8 * settings.batch,
        };
        let identities = Identities {
            db: ingest.db.clone(),
            clock: ingest.clock.clone(),
            metrics: ingest.metrics.clone(),
            service,
            shared: gateways.clone(),
            refusal_log: RefusalLog::default(),
        };
        let broker = EmbeddedBroker::start(listen, tls, Arc::new(identities), durable).await?;
        tokio::spawn(close_revoked(broker.clone(), ingest.revocations.subscribe(), stop.clone()));
        // Ingest takes its session in this process: no client connection,
        // and a batch is acknowledged in one call.
        let held =
            || MqttError::Settings("mqtt.client_id", format!("{} is held by a network client", settings.client_id));
        let local = Link::local(&broker).ok_or_else(held)?;
        (Some(broker), gateways, local)
    } else {
        let (host, port) = settings.broker_address().map_err(|(key, message)| MqttError::Settings(key, message))?;
        let password = settings.password.clone().unwrap_or_default();
        let filter = match settings.shared_group.as_str() {
            "" => UPLINKS.to_owned(),
            group => format!("$share/{group}/{}", UPLINKS),
        };
        let login =
            Login { host, port, client_id: settings.client_id.clone(), username: settings.username.clone(), password };
        (None, None, Link::subscribe(&login, filter, stop.clone()))
    };
    tokio::spawn(dispatch::run(ingest.clone(), link.clone(), stop.clone()));
    tokio::spawn(ingest::worker::run(ingest, link.clone(), deliveries, settings.batch, stop));
    Ok(Mqtt { broker, link, gateway_login })
}

/// The embedded broker's TLS listener, from its files, accepting client
/// certificates signed by `client_ca` (PEM) if given; `None` without
/// `mqtt.tls.listen`.
pub fn tls_listener(settings: &MqttSettings, client_ca: Option<&[u8]>) -> Result<Option<TlsListener>, MqttError> {
    let Some(listen) = settings.tls.address().map_err(|(key, message)| MqttError::Settings(key, message))? else {
        return Ok(None);
    };
    let read = |key: &'static str, path: &str| {
        std::fs::read(path).map_err(|e| MqttError::Settings(key, format!("cannot read {path}: {e}")))
    };
    let certificate = read("mqtt.tls.cert_file", &settings.tls.cert_file)?;
    let key = read("mqtt.tls.key_file", &settings.tls.key_file)?;
    let config = wm_mqtt::server_config(&certificate, &key, client_ca)
        .map_err(|e| MqttError::Settings("mqtt.tls", e.to_string()))?;
    Ok(Some(TlsListener { listen, config }))
}

/// Closes the connections of each gateway whose credential is revoked.
async fn close_revoked(
    broker: EmbeddedBroker,
    mut revoked: tokio::sync::broadcast::Receiver<String>,
    stop: CancellationToken,
) {
    loop {
        let identity = tokio::select! {
            () = stop.cancelled() => return,
            identity = revoked.recv() => identity,
        };
        match identity {
            Ok(identity) => {
                tracing::info!(identity, "MQTT credential revoked: its connections are closed");
                broker.disconnect(&identity);
            }
            Err(RecvError::Lagged(missed)) => {
                tracing::warn!(missed, "revocations missed: they still refuse the next connection")
            }
            Err(RecvError::Closed) => return,
        }
    }
}

/// A password for a login nobody configured: 24 random URL-safe characters.
fn random_secret() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    (0..24).map(|_| char::from(ALPHABET[rand::random_range(0..ALPHABET.len())])).collect()
}
