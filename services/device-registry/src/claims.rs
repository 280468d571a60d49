//! Forgets the state projection's claims on readings
//! (`storage::state::claim_readings`) once no redelivery can need them:
//! every hour, in transactions of their own, off the projection's path.

use std::{sync::Arc, time::Duration};

use tokio_util::sync::CancellationToken;
use wm_domain::Clock;
use wm_storage::Db;

use crate::storage::{micros, state};

/// How long a reading's claim is kept: far longer than a redelivery takes.
const KEPT: chrono::TimeDelta = chrono::TimeDelta::days(1);
const EVERY: Duration = Duration::from_secs(3600);

/// Forgets old claims every hour (and once at start-up) until `stop`.
pub async fn run(db: Db, clock: Arc<dyn Clock>, stop: CancellationToken) {
    loop {
        match state::forget_claims(&db, micros(clock.now() - KEPT)).await {
            Ok(0) => {}
            Ok(forgotten) => tracing::debug!(forgotten, "old reading claims forgotten"),
            Err(e) => tracing::warn!(error = %e, "old reading claims were not forgotten; trying again in an hour"),
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(EVERY) => {}
        }
    }
}
