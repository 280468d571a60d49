use anyhow::Context;
use wm_eventlog::projection::{self, RunOptions};

use crate::{
    config::Settings,
    role::{Role, Service},
    wiring,
};

/// `wmeter replay [--service S]`: rebuilds the projections of this
/// deployment (or of service `S`, in its own database) from offset 0 of the
/// event log. External effects are suppressed, and no consumer group's
/// offsets move, so running services are not disturbed.
pub async fn run(settings: Settings, service: Option<Service>) -> anyhow::Result<()> {
    let _in_use = crate::database_file::share(&settings.database)?;
    let role = service.map_or(Role::Embedded, Role::Service);
    let wiring = wiring::connect(&settings, role, std::sync::Arc::new(wm_domain::SystemClock)).await?;
    let log = wiring.event_log().context("replay needs the event log")?.clone();
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
