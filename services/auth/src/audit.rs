//! Auth events on the event log (topic `wmeter.auth.v1`): sign-ins,
//! sign-outs, refresh-token reuse and user changes, each with its actor,
//! its time (the envelope's `occurred_at`) and, over HTTP, the client's
//! address.

use std::sync::Arc;

use actix_web::HttpRequest;
use wm_eventlog::{EventLog, envelopes};
use wm_proto::{Envelope, Payload, topics};

/// The actor of changes made with the `wmeter user` commands.
pub const CLI_ACTOR: &str = "cli";
/// The actor of the users the demo creates for itself.
pub const SYSTEM_ACTOR: &str = "system";

/// Where auth events go.
#[derive(Clone, Debug)]
pub struct Audit {
    log: Arc<dyn EventLog>,
}

impl Audit {
    /// Makes sure the auth topic exists (a Kafka cluster may not create
    /// topics on its own).
    pub async fn open(log: Arc<dyn EventLog>) -> Result<Self, wm_eventlog::EventLogError> {
        log.ensure_topics(&[topics::AUTH, topics::AUDIT]).await?;
        Ok(Self { log })
    }

    /// Appends a change to the user `user_id`, done by `actor` outside HTTP
    /// (the `wmeter user` commands, the demo), with its audit record.
    /// Unlike [`Audit::record`], a failure is returned: the caller must say
    /// that the change went unrecorded.
    pub async fn record_change(
        &self,
        user_id: &str,
        actor: &str,
        payload: Payload,
        record: Envelope,
    ) -> Result<(), wm_eventlog::EventLogError> {
        let change = Envelope::new(user_id, actor, payload);
        envelopes::publish(self.log.as_ref(), &[change, record]).await.map(drop)
    }

    /// Appends one event about the user `user_id`, done by `actor`.
    ///
    /// A failure is logged, not returned: the change it records has already
    /// happened, and signing in must not depend on the log being reachable
    /// at that instant (docs/architecture.md, "Auth events").
    pub async fn record(&self, user_id: &str, actor: &str, payload: Payload) {
        self.publish(Envelope::new(user_id, actor, payload)).await;
    }

    /// Appends `envelope` (a refused attempt's audit record, say); a
    /// failure is logged, as in [`Audit::record`].
    pub async fn publish(&self, envelope: Envelope) {
        if let Err(e) = envelopes::publish(self.log.as_ref(), std::slice::from_ref(&envelope)).await {
            tracing::error!(error = ?e, event_id = envelope.event_id, user = envelope.device_id, "auth event not recorded");
        }
    }
}

/// The client's address ([`wm_http::client_ip`]), or "" when unknown.
pub fn source_ip(req: &HttpRequest) -> String {
    wm_http::client_ip(req).map(|ip| ip.to_string()).unwrap_or_default()
}
