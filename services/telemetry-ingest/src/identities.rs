//! Who may sign in to the embedded broker, and what each may do
//! (docs/device-plane.md):
//!
//! - w-meter's own account: everything;
//! - a gateway, with its serial number as username and one of its own
//!   secrets as password, or over TLS with its own client certificate:
//!   publish its uplinks under `wmeter/v1/gw/{serial}/`, subscribe to its
//!   own `cmd` topic, with its serial number as client id;
//! - the shared gateway login, only when `mqtt.gateway_password` is set (a
//!   migration from shared credentials): any gateway's topics.
//!
//! A refused connection, publish or subscription is counted and logged (at
//! most a line a minute for each identity); the broker never routes a
//! refused publish, so ingest never sees it.

use std::{net::SocketAddr, sync::Arc};

use async_trait::async_trait;
use tokio::sync::broadcast;
use wm_domain::{Clock, SerialNumber};
use wm_mqtt::{Access, Attempt, Authenticator, Refusal, password};
use wm_storage::Db;
use wm_uplink::topic;

use crate::{ingest::metrics::IngestMetrics, refusal_log::RefusalLog, storage::credentials};

/// The identity of the gateway `serial`, as logs, metrics and the broker's
/// sessions name it (and as events name a gateway actor).
pub fn gateway_identity(serial: &str) -> String {
    wm_proto::gateway_actor(serial)
}

/// The identities whose credential was revoked, on their way to the
/// embedded broker, which closes their connections.
#[derive(Clone, Debug)]
pub struct Revocations(broadcast::Sender<String>);

impl Default for Revocations {
    fn default() -> Self {
        Self(broadcast::channel(1024).0)
    }
}

impl Revocations {
    pub fn revoked(&self, identity: String) {
        // Nobody listens without an embedded broker: nothing to close.
        let _ = self.0.send(identity);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<String> {
        self.0.subscribe()
    }
}

/// The embedded broker's [`Authenticator`].
#[derive(Debug)]
pub struct Identities {
    pub db: Db,
    pub clock: Arc<dyn Clock>,
    pub metrics: IngestMetrics,
    /// w-meter's own login: username, password.
    pub service: (String, String),
    /// The shared gateway login, when configured.
    pub shared: Option<(String, String)>,
    pub refusal_log: RefusalLog,
}

#[async_trait]
impl Authenticator for Identities {
    async fn authenticate(&self, attempt: &Attempt<'_>) -> Option<Access> {
        let now = self.clock.now().timestamp_micros();
        // A client certificate the TLS listener verified decides alone.
        if let Some(certificate) = attempt.certificate {
            let fingerprint = wm_mqtt::fingerprint(certificate);
            return match credentials::certificate_owner(&self.db, &fingerprint, now).await {
                Ok(owner) => owner.map(|serial| gateway_access(&serial)),
                Err(e) => {
                    tracing::error!(error = %e, "cannot read the gateways' MQTT credentials");
                    None
                }
            };
        }
        let (username, secret) = (attempt.username?, attempt.password?);
        if username == self.service.0 {
            return password::same(secret, &self.service.1).then(|| Access::full(format!("service:{username}")));
        }
        if let Some((shared, shared_secret)) = &self.shared
            && username == shared
        {
            return password::same(secret, shared_secret).then(|| shared_access(shared));
        }
        let serial = SerialNumber::parse(username).ok()?;
        let hashes = match credentials::secret_hashes(&self.db, serial.as_str(), now).await {
            Ok(hashes) => hashes,
            Err(e) => {
                tracing::error!(error = %e, "cannot read the gateways' MQTT credentials");
                return None;
            }
        };
        hashes.iter().any(|hash| password::verify(secret, hash)).then(|| gateway_access(serial.as_str()))
    }

    fn refused(&self, identity: &str, peer: SocketAddr, refusal: Refusal<'_>) {
        self.metrics.mqtt_refused(refusal.action());
        let Some(unlogged) = self.refusal_log.admit(identity, std::time::Instant::now()) else { return };
        match refusal {
            Refusal::Connect => tracing::warn!(identity, %peer, unlogged, "MQTT connection refused"),
            Refusal::Publish(topic) => tracing::warn!(identity, %peer, topic, unlogged, "MQTT publish refused"),
            Refusal::Subscribe(filter) => {
                tracing::warn!(identity, %peer, filter, unlogged, "MQTT subscription refused");
            }
        }
    }
}

/// A gateway's own topics, under its own client id: any kind under its
/// serial (an unknown kind reaches ingest, which dead-letters it with its
/// reason) but its `cmd` topic, which only w-meter writes; and its commands.
fn gateway_access(serial: &str) -> Access {
    Access {
        identity: gateway_identity(serial),
        client_id: Some(serial.to_owned()),
        publish: Some(vec![format!("{}{serial}/+", topic::PREFIX)]),
        publish_denied: vec![topic::commands(serial)],
        subscribe: Some(vec![topic::commands(serial)]),
    }
}

/// Every gateway's uplinks and commands: what the shared login always
/// could do.
fn shared_access(username: &str) -> Access {
    Access {
        identity: format!("shared:{username}"),
        client_id: None,
        publish: Some(vec![topic::UPLINKS.to_owned()]),
        publish_denied: vec![topic::commands("+")],
        subscribe: Some(vec![topic::commands("+")]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gateway_may_use_its_own_topics_and_client_id_only() {
        let access = gateway_access("A1B2C3D4E5");
        assert_eq!(access.identity, "gateway:A1B2C3D4E5");
        assert_eq!(access.client_id.as_deref(), Some("A1B2C3D4E5"));
        assert!(access.may_publish("wmeter/v1/gw/A1B2C3D4E5/reading"));
        assert!(!access.may_publish("wmeter/v1/gw/B1B2C3D4E5/reading"));
        assert!(!access.may_publish("wmeter/v1/gw/A1B2C3D4E5/cmd"), "only w-meter writes commands");
        assert!(access.may_subscribe("wmeter/v1/gw/A1B2C3D4E5/cmd"));
        assert!(!access.may_subscribe("wmeter/v1/gw/+/+"));
    }

    #[test]
    fn the_shared_login_reaches_every_gateway_but_not_the_uplinks() {
        let access = shared_access("gateway");
        assert!(access.may_publish("wmeter/v1/gw/B1B2C3D4E5/reading"));
        assert!(!access.may_publish("wmeter/v1/gw/B1B2C3D4E5/cmd"));
        assert!(access.may_subscribe("wmeter/v1/gw/B1B2C3D4E5/cmd"));
        assert!(!access.may_subscribe("wmeter/v1/gw/+/+"));
        assert!(!access.may_subscribe("#"));
    }
}
