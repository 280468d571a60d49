//! Forgets the state projection's claims on readings
//! (`storage::state::claim_readings`) once no redelivery can need them:
//! periodically, in transactions of their own, off the projection's path.

use std::{sync::Arc, time::Duration};

use chrono::TimeDelta;
use tokio_util::sync::CancellationToken;
use wm_domain::Clock;
use wm_storage::Db;

use crate::storage::{micros, state};

/// How long a reading's claim is kept: far longer than a redelivery takes.
const KEPT: TimeDelta = TimeDelta::days(1);

/// How long claims are kept under the telemetry `retention`: a claim
/// answers a redelivery of its reading's record, which outlives the
/// retention only in the log a projection has not read yet. A retention in
/// minutes (soaks and trials) thus bounds the claims too.
fn kept(retention: TimeDelta) -> TimeDelta {
    KEPT.min(retention)
}

/// Forgets old claims every `every` (and once at start-up) until `stop`:
/// the telemetry retention's own period (`TelemetrySettings::prune_every`).
pub async fn run(db: Db, clock: Arc<dyn Clock>, retention: TimeDelta, every: Duration, stop: CancellationToken) {
    loop {
        match state::forget_claims(&db, micros(clock.now() - kept(retention))).await {
            Ok(0) => {}
            Ok(forgotten) => tracing::debug!(forgotten, "old reading claims forgotten"),
            Err(e) => tracing::warn!(error = %e, "old reading claims were not forgotten; trying again later"),
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(every) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_are_kept_a_day_or_the_retention_if_shorter() {
        assert_eq!(kept(TimeDelta::days(90)), TimeDelta::days(1));
        assert_eq!(kept(TimeDelta::minutes(5)), TimeDelta::minutes(5));
    }
}
