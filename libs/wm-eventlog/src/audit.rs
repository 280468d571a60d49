//! The audit trail's write side (topic `wmeter.audit.v1`). A service
//! records a mutation by staging an [`AuditRecorded`] in its outbox, in the
//! transaction of the change: the change and its record commit together or
//! not at all. A refused attempt commits nothing else, so it is staged in a
//! transaction of its own ([`record_refusal`]). The auth service keeps the
//! trail (docs/reliability.md, "Audit").

use std::net::IpAddr;

use chrono::{DateTime, Utc};
use wm_proto::{Envelope, Payload, v1::AuditRecorded};
use wm_storage::{Db, StorageError, Tx};

use crate::outbox::Relay;

/// The outcome of an attempt that succeeded.
pub const OK: &str = "ok";
/// The longest target kept, in bytes: ids are 24 characters, but a refused
/// request's path can hold anything.
pub const MAX_TARGET: usize = 64;

/// Who attempted what, on what: everything about an attempt but its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    pub actor: String,
    pub role: String,
    pub source_ip: Option<IpAddr>,
    /// e.g. `gateway.register`, `shutdown.confirm`.
    pub action: &'static str,
    /// The device's or user's id; empty until it is known.
    pub target: String,
}

impl Attempt {
    /// `actor`, in `role`, from `source_ip`, attempts `action`.
    pub fn new(actor: &str, role: &str, source_ip: Option<IpAddr>, action: &'static str) -> Self {
        Self { actor: actor.to_owned(), role: role.to_owned(), source_ip, action, target: String::new() }
    }

    /// The target, once it is known (a registration's new id, say). A
    /// target taken from a refused request is cut to [`MAX_TARGET`] bytes.
    pub fn on(mut self, target: &str) -> Self {
        let mut end = target.len().min(MAX_TARGET);
        while !target.is_char_boundary(end) {
            end -= 1;
        }
        self.target = target[..end].to_owned();
        self
    }

    /// The record of this attempt succeeding, taking the target from
    /// `before` to `after` (JSON; `None` when it did not or no longer
    /// exists).
    pub fn succeeded(&self, before: Option<String>, after: Option<String>, at: DateTime<Utc>) -> Envelope {
        self.envelope(OK, "", before, after, at)
    }

    /// The record of this attempt being refused with `code` because of
    /// `detail`.
    pub fn refused(&self, code: &str, detail: &str, at: DateTime<Utc>) -> Envelope {
        self.envelope(code, detail, None, None, at)
    }

    fn envelope(
        &self,
        outcome: &str,
        detail: &str,
        before: Option<String>,
        after: Option<String>,
        at: DateTime<Utc>,
    ) -> Envelope {
        let recorded = AuditRecorded {
            action: self.action.to_owned(),
            target_id: self.target.clone(),
            role: self.role.clone(),
            source_ip: self.source_ip.map(|ip| ip.to_string()).unwrap_or_default(),
            before_json: before.unwrap_or_default(),
            after_json: after.unwrap_or_default(),
            outcome: outcome.to_owned(),
            detail: detail.to_owned(),
        };
        Envelope::new(&self.target, &self.actor, Payload::AuditRecorded(recorded)).with_occurred_at(at)
    }
}

/// Stages `record` in `tx` through `relay`, keyed by its target.
pub async fn stage(tx: &mut Tx, relay: &Relay, record: &Envelope) -> Result<(), StorageError> {
    stage_all(tx, relay, std::slice::from_ref(record)).await
}

/// Stages `records` in `tx` through `relay`, each keyed by its target.
pub async fn stage_all(tx: &mut Tx, relay: &Relay, records: &[Envelope]) -> Result<(), StorageError> {
    relay.stage(tx, None, records).await
}

/// Records an attempt refused at `at` in a transaction of its own. A failure is
/// logged, not returned: the caller is already answering with the refusal,
/// and nothing was changed that would go unrecorded.
pub async fn record_refusal(
    db: &Db,
    relay: &Relay,
    attempt: &Attempt,
    (code, detail): (&str, &str),
    at: DateTime<Utc>,
) {
    let record = attempt.refused(code, detail, at);
    let staged = async {
        let mut tx = db.begin_write().await?;
        stage(&mut tx, relay, &record).await?;
        tx.commit().await
    };
    match staged.await {
        Ok(()) => relay.wake(),
        Err(e) => tracing::error!(error = ?e, action = attempt.action, "a refused attempt was not audited"),
    }
}
