//! The task that enforces the retention period (`telemetry.retention_days`)
//! on the telemetry tables and, in the embedded mode, on the log's
//! telemetry topics, and forgets the rollups' old claims, off the
//! projections' path.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use tokio_util::sync::CancellationToken;
use wm_eventlog::EventLog;

use crate::{
    state::IngestState,
    storage::{partitions, retention},
};

/// How far ahead of now, and behind it, PostgreSQL's month partitions are
/// kept ready: readings arrive late by hours, not months.
const PARTITIONS_AHEAD: chrono::TimeDelta = chrono::TimeDelta::days(62);
const PARTITIONS_BEHIND: chrono::TimeDelta = chrono::TimeDelta::days(31);

/// How long the rollups' claim on a reading is kept: far longer than a
/// redelivery takes, unless the retention is shorter still.
const ROLLUP_CLAIMS_KEPT: chrono::TimeDelta = chrono::TimeDelta::days(2);

/// How long the rollups' claims are kept under `retention`: a claim answers
/// a redelivery of its reading's record, which outlives the retention only
/// in the log a projection has not read yet. A retention in minutes (soaks
/// and trials) thus bounds the claims too, instead of two days of them.
fn rollup_claims_kept(retention: chrono::TimeDelta) -> chrono::TimeDelta {
    ROLLUP_CLAIMS_KEPT.min(retention)
}

/// Prunes every hour, or more often for a retention in minutes (and once
/// at start-up), until `stop`. `log` is the event log: when it is the
/// embedded one, its telemetry topics are expired too.
pub async fn run(ingest: IngestState, log: Option<Arc<dyn EventLog>>, stop: CancellationToken) {
    loop {
        let before = ingest.clock.now() - ingest.telemetry.retention();
        partitions(&ingest, before).await;
        match retention::prune(&ingest.db, before.timestamp_micros()).await {
            Ok(0) => {}
            Ok(deleted) => tracing::info!(deleted, "telemetry past its retention deleted"),
            Err(e) => tracing::warn!(error = %e, "telemetry retention failed; trying again later"),
        }
        if let Some(embedded) = log.as_deref().and_then(EventLog::embedded) {
            for topic in wm_proto::topics::TELEMETRY {
                match embedded.expire(topic, before).await {
                    Ok(0) => {}
                    Ok(deleted) => tracing::info!(topic, deleted, "event log records past the retention deleted"),
                    Err(e) => tracing::warn!(topic, error = %e, "event log retention failed; trying again later"),
                }
            }
        }
        let before = ingest.clock.now() - rollup_claims_kept(ingest.telemetry.retention());
        if let Err(e) = retention::forget_rollup_claims(&ingest.db, before.timestamp_micros()).await {
            tracing::warn!(error = %e, "the rollups' old claims were not deleted; trying again later");
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(ingest.telemetry.prune_every()) => {}
        }
    }
}

/// The span, in µs, whose months PostgreSQL's partitions are kept ready
/// for at `now`: readings a month late, unless the retention's limit
/// `before` is nearer (a month made behind it would be dropped at once, and
/// made again at the next prune), to two months ahead.
pub fn months_kept_ready(now: DateTime<Utc>, before: DateTime<Utc>) -> (i64, i64) {
    ((now - PARTITIONS_BEHIND).max(before).timestamp_micros(), (now + PARTITIONS_AHEAD).timestamp_micros())
}

/// Makes the coming months' partitions (PostgreSQL) and drops those
/// wholly older than `before`.
async fn partitions(ingest: &IngestState, before: DateTime<Utc>) {
    let (from, to) = months_kept_ready(ingest.clock.now(), before);
    match partitions::cover(&ingest.db, from, to).await {
        Ok(0) => {}
        Ok(created) => tracing::info!(created, "telemetry partitions made for the coming months"),
        Err(e) => tracing::warn!(error = %e, "telemetry partitions were not made; trying again later"),
    }
    match partitions::drop_before(&ingest.db, before.timestamp_micros()).await {
        Ok(0) => {}
        Ok(dropped) => tracing::info!(dropped, "telemetry partitions past the retention dropped"),
        Err(e) => tracing::warn!(error = %e, "telemetry partitions were not dropped; trying again later"),
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeDelta;

    use super::*;

    #[test]
    fn the_rollups_claims_are_kept_two_days_or_the_retention_if_shorter() {
        assert_eq!(rollup_claims_kept(TimeDelta::days(90)), TimeDelta::days(2));
        assert_eq!(rollup_claims_kept(TimeDelta::minutes(5)), TimeDelta::minutes(5));
    }
}
