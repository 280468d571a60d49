//! The sender: takes due deliveries from the outbox (`deliveries`), sends
//! each by its rule's channel, and logs the attempt: delivered, retried
//! with exponential backoff, or given up with the reason. Every replica
//! runs one; a lease keeps them from sending one delivery twice at once.

use std::{sync::Arc, time::Instant};

use chrono::TimeDelta;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use wm_domain::Clock;
use wm_storage::{Db, StorageError};

use super::{Outcome, email::Mailer, message, webhook::Webhooks};
use crate::{
    domain::{
        alarm_rule::Channel,
        delivery::{Backoff, Next},
    },
    storage::{
        alarm_rules,
        deliveries::{self, After, Attempt, Delivery},
    },
};

/// The most deliveries sent at once by one replica.
const BATCH: i64 = 16;
/// How often the outbox is looked at without being woken.
const POLL: std::time::Duration = std::time::Duration::from_secs(1);

#[derive(Clone, Debug)]
pub struct Sender {
    pub db: Db,
    pub clock: Arc<dyn Clock>,
    pub webhooks: Webhooks,
    pub mailer: Mailer,
    pub backoff: Backoff,
    /// How long one attempt may take; the lease is longer.
    pub timeout: std::time::Duration,
    /// Woken when a delivery is queued to go at once (a test message).
    pub wake: Arc<Notify>,
}

impl Sender {
    /// Sends what is due until `stop`.
    pub async fn run(self, stop: CancellationToken) {
        loop {
            tokio::select! {
                () = stop.cancelled() => return,
                () = self.wake.notified() => {},
                () = tokio::time::sleep(POLL) => {},
            }
            if let Err(e) = self.send_due().await {
                tracing::warn!(error = ?e, "cannot read the deliveries outbox, retrying");
            }
        }
    }

    /// Sends the deliveries due now; how many were tried.
    pub async fn send_due(&self) -> Result<usize, StorageError> {
        let lease = TimeDelta::from_std(self.timeout * 2).unwrap_or(TimeDelta::MAX) + TimeDelta::seconds(5);
        let due = deliveries::claim(&self.db, self.clock.now(), lease, BATCH).await?;
        let results = futures::future::join_all(due.iter().map(|delivery| self.attempt(delivery))).await;
        results.into_iter().collect::<Result<Vec<_>, _>>().map(|tried| tried.len())
    }

    async fn attempt(&self, delivery: &Delivery) -> Result<(), StorageError> {
        let Some((rule, _)) = alarm_rules::find(&self.db, &delivery.rule_id).await? else { return Ok(()) };
        let (at, started) = (self.clock.now(), Instant::now());
        let outcome = match &rule.channel {
            Channel::Webhook { url } => {
                let secret = alarm_rules::secret(&self.db, &rule.id).await?.unwrap_or_default();
                let body = serde_json::to_vec(&message::webhook_body(delivery, &rule, at)).unwrap_or_default();
                self.webhooks.send(url, &secret, &delivery.id, at.timestamp(), body).await
            }
            Channel::Email { to } => {
                let (subject, body) = message::email(delivery, &rule);
                self.mailer.send(to, &subject, &body).await
            }
        };
        let latency_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let after = self.after(delivery, &outcome, at).await?;
        match &after {
            After::Delivered => tracing::info!(delivery = delivery.id, rule = rule.id, "delivered"),
            After::RetryAt(next) => {
                tracing::info!(delivery = delivery.id, rule = rule.id, error = ?outcome.error, %next, "delivery failed; retrying");
            }
            After::Abandoned(reason) => {
                tracing::warn!(delivery = delivery.id, rule = rule.id, reason, "delivery given up")
            }
        }
        let Outcome { ok, status_code, error } = outcome;
        let attempt = Attempt { at, ok, status_code, latency_ms, error };
        deliveries::attempted(&self.db, &delivery.id, &attempt, &after).await
    }

    /// What follows `outcome`, the attempt made at `at`.
    async fn after(
        &self,
        delivery: &Delivery,
        outcome: &Outcome,
        at: chrono::DateTime<chrono::Utc>,
    ) -> Result<After, StorageError> {
        if outcome.ok {
            return Ok(After::Delivered);
        }
        let first = if delivery.attempts == 0 {
            at
        } else {
            deliveries::first_attempt(&self.db, &delivery.id).await?.unwrap_or(at)
        };
        let attempts = delivery.attempts + 1;
        Ok(match self.backoff.after_failure(attempts, first, self.clock.now()) {
            Next::RetryAt(next) => After::RetryAt(next),
            Next::GiveUp => {
                let spent = (self.clock.now() - first).num_seconds();
                let last = outcome.error.as_deref().unwrap_or("it failed");
                After::Abandoned(format!("Given up after {attempts} attempts in {spent} s; the last one: {last}"))
            }
        })
    }
}
