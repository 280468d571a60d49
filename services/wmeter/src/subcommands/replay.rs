use anyhow::Context;
use wm_eventlog::projection::{self, RunOptions};

use crate::{
    config::Settings,
    role::{Role, Service},
    wiring,
};

/// `wmeter replay [--service S] [--allow-expired]`: rebuilds the
/// projections of this deployment (or of service `S`, in its own database)
/// from offset 0 of the event log. External effects are suppressed, and no
/// consumer group's offsets move, so running services are not disturbed.
///
/// Refused, unless `allow_expired`, when the telemetry retention expired
/// records of the embedded log: the meters' totals and the daily and
/// monthly rollups would then count only the retained window.
pub async fn run(settings: Settings, service: Option<Service>, allow_expired: bool) -> anyhow::Result<()> {
    let _in_use = crate::database_file::share(&settings.database)?;
    let role = service.map_or(Role::Embedded, Role::Service);
    let wiring = wiring::connect(&settings, role, std::sync::Arc::new(wm_domain::SystemClock)).await?;
    let log = wiring.event_log().context("replay needs the event log")?.clone();
    if let Some(embedded) = log.embedded() {
        let expired = expired_topics(embedded).await?;
        if !expired.is_empty() && !allow_expired {
            wiring.shutdown().await;
            anyhow::bail!(
                "replay refused: the telemetry retention expired the oldest records of {}, so a rebuild would count \
                 only the retained window in the meters' totals and the daily and monthly rollups. Restore a backup \
                 instead (docs/operations.md, \"Replay runbook\"), or pass --allow-expired to rebuild from what the \
                 log still holds",
                expired.join(", ")
            );
        }
    }
    let projections = wiring.projections();
    if projections.is_empty() {
        println!("no projections to rebuild");
    }
    for p in projections {
        let applied = projection::rebuild(log.as_ref(), p.as_ref(), RunOptions::default())
            .await
            .with_context(|| format!("rebuilding {}", p.name()))?;
        println!("{}: rebuilt from {applied} events", p.name());
    }
    wiring.shutdown().await;
    Ok(())
}

/// The embedded log's telemetry topics whose oldest records were expired.
async fn expired_topics(log: &wm_eventlog::embedded::EmbeddedLog) -> anyhow::Result<Vec<&'static str>> {
    let mut expired = Vec::new();
    for topic in wm_proto::topics::TELEMETRY {
        if log.expired(topic).await.with_context(|| format!("reading {topic}"))? {
            expired.push(*topic);
        }
    }
    Ok(expired)
}
