//! The task that enforces the retention period (`telemetry.retention_days`).

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::{state::IngestState, storage::retention};

/// Prunes every hour (and once at start-up) until `stop`.
pub async fn run(ingest: IngestState, stop: CancellationToken) {
    loop {
        let before = ingest.clock.now() - chrono::Duration::days(i64::from(ingest.telemetry.retention_days));
        match retention::prune(&ingest.db, before.timestamp_micros()).await {
            Ok(0) => {}
            Ok(deleted) => tracing::info!(deleted, "telemetry past its retention deleted"),
            Err(e) => tracing::warn!(error = %e, "telemetry retention failed; trying again in an hour"),
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(Duration::from_secs(3600)) => {}
        }
    }
}
