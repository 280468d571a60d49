//! What the notification service's routes and tasks share.

use std::{sync::Arc, time::Duration};

use wm_domain::Clock;
use wm_eventlog::outbox::Relay;
use wm_proto::Envelope;
use wm_storage::{Db, StorageError, Tx};

use crate::{hub::Hub, rules};

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
    /// Woken when a rule's delivery is due at once (`deliver::sender`).
    pub deliveries_due: Arc<tokio::sync::Notify>,
}

/// Stages notification events, each keyed by its user so a user's
/// notifications and dismissals stay in order on the log.
pub async fn stage(relay: &Relay, tx: &mut Tx, envelopes: &[Envelope]) -> Result<(), StorageError> {
    for envelope in envelopes {
        relay.stage(tx, rules::user_of(envelope), std::slice::from_ref(envelope)).await?;
    }
    Ok(())
}
