//! The `telemetry` settings and the task that enforces the retention
//! period.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use crate::{ingest::Ingest, storage::retention};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct TelemetrySettings {
    /// Days telemetry is kept (activity, BLE activity, readings,
    /// discoveries, accepted message ids); older rows are deleted hourly.
    /// The event log keeps its own retention.
    pub retention_days: u32,
}

impl Default for TelemetrySettings {
    fn default() -> Self {
        Self { retention_days: 90 }
    }
}

impl TelemetrySettings {
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        if !(1..=3650).contains(&self.retention_days) {
            return Err((
                "telemetry.retention_days",
                format!("{} is out of range; expected 1 to 3650", self.retention_days),
            ));
        }
        Ok(())
    }
}

/// Prunes every hour (and once at start-up) until `stop`.
pub async fn run(ingest: Ingest, settings: TelemetrySettings, stop: CancellationToken) {
    loop {
        let before = ingest.clock.now() - chrono::Duration::days(i64::from(settings.retention_days));
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
