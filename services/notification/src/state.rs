//! What the notification service's routes and tasks share.

use std::{sync::Arc, time::Duration};

use wm_domain::Clock;
use wm_eventlog::outbox::{self, Relay};
use wm_proto::Envelope;
use wm_storage::{Db, Tx};

use crate::{NAME, hub::Hub, rules};

#[derive(Clone, Debug)]
pub struct NotificationState {
    pub db: Db,
    pub relay: Relay,
    pub clock: Arc<dyn Clock>,
    pub hub: Arc<Hub>,
    /// A gateway not heard for this long is lost.
    pub gateway_lost_after: Duration,
    /// How often a quiet stream sends a heartbeat comment.
    pub heartbeat: Duration,
}

/// Stages notification events, each keyed by its user so a user's
/// notifications and dismissals stay in order on the log.
pub async fn stage(tx: &mut Tx, envelopes: &[Envelope]) -> Result<(), sqlx::Error> {
    for envelope in envelopes {
        outbox::stage(tx, NAME, rules::user_of(envelope), std::slice::from_ref(envelope)).await?;
    }
    Ok(())
}

/// The `notifications` settings.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct NotificationSettings {
    /// Seconds between heartbeat comments on a quiet stream (1 to 300).
    pub heartbeat_secs: u64,
}

impl Default for NotificationSettings {
    fn default() -> Self {
        Self { heartbeat_secs: 15 }
    }
}

impl NotificationSettings {
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        if !(1..=300).contains(&self.heartbeat_secs) {
            let message = format!("{} is out of range; expected 1 to 300 seconds", self.heartbeat_secs);
            return Err(("notifications.heartbeat_secs", message));
        }
        Ok(())
    }
}
