//! The task that enforces the retention period (`telemetry.retention_days`)
//! and forgets the rollups' old claims, off the projections' path.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::{state::IngestState, storage::retention};

/// How long the rollups' claim on a reading is kept: far longer than a
/// redelivery takes.
const ROLLUP_CLAIMS_KEPT: chrono::TimeDelta = chrono::TimeDelta::days(2);

/// Prunes every hour (and once at start-up) until `stop`.
pub async fn run(ingest: IngestState, stop: CancellationToken) {
    loop {
        let before = ingest.clock.now() - chrono::Duration::days(i64::from(ingest.telemetry.retention_days));
        match retention::prune(&ingest.db, before.timestamp_micros()).await {
            Ok(0) => {}
            Ok(deleted) => tracing::info!(deleted, "telemetry past its retention deleted"),
            Err(e) => tracing::warn!(error = %e, "telemetry retention failed; trying again in an hour"),
        }
        let before = ingest.clock.now() - ROLLUP_CLAIMS_KEPT;
        if let Err(e) = retention::forget_rollup_claims(&ingest.db, before.timestamp_micros()).await {
            tracing::warn!(error = %e, "the rollups' old claims were not deleted; trying again in an hour");
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(Duration::from_secs(3600)) => {}
        }
    }
}
