//! Opens what a role needs: the database (with every owned migration
//! applied) and the event log. The same code serves both modes; only the
//! adapters chosen here differ.

use std::sync::Arc;

use anyhow::Context;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use wm_eventlog::{
    EventLog,
    projection::{self, Projection, RunOptions},
};
use wm_storage::{Db, Migrations};

use crate::{app::Role, cli::Service, config::Settings};

/// The connections and background consumers of a running process, stopped
/// by [`Wiring::shutdown`].
#[derive(Debug)]
pub struct Wiring {
    db: Option<Db>,
    event_log: Option<Arc<dyn EventLog>>,
    projections: Vec<Arc<dyn Projection>>,
    stop: CancellationToken,
    consumers: JoinSet<()>,
}

impl Wiring {
    fn new(db: Option<Db>, event_log: Option<Arc<dyn EventLog>>) -> Self {
        Self { db, event_log, projections: Vec::new(), stop: CancellationToken::new(), consumers: JoinSet::new() }
    }

    pub fn db(&self) -> Option<&Db> {
        self.db.as_ref()
    }

    pub fn event_log(&self) -> Option<&Arc<dyn EventLog>> {
        self.event_log.as_ref()
    }

    /// The projections of the services this process runs. Services add
    /// theirs as they gain tables.
    pub fn projections(&self) -> &[Arc<dyn Projection>] {
        &self.projections
    }

    /// Runs `task` in the background until shutdown, when its token is
    /// cancelled and it is awaited.
    pub fn spawn<F>(&mut self, task: impl FnOnce(CancellationToken) -> F)
    where
        F: Future<Output = ()> + Send + 'static,
    {
        self.consumers.spawn(task(self.stop.clone()));
    }

    /// The token cancelled at shutdown, for tasks that spawn their own.
    pub fn stop_token(&self) -> CancellationToken {
        self.stop.clone()
    }

    /// Starts a consumer for every live projection; they run until shutdown.
    pub fn spawn_consumers(&mut self) {
        let Some(log) = self.event_log.clone() else { return };
        for p in self.projections.iter().filter(|p| p.live()) {
            let (log, stop, p) = (log.clone(), self.stop.clone(), p.clone());
            self.consumers.spawn(async move {
                projection::run(log.as_ref(), p.as_ref(), RunOptions::default(), stop).await;
            });
        }
    }

    /// Stops the consumers (each finishes its batch and commits), then closes
    /// the database. Call it after the HTTP server stopped.
    pub async fn shutdown(mut self) {
        self.stop.cancel();
        while self.consumers.join_next().await.is_some() {}
        if let Some(db) = self.db {
            db.close().await;
        }
    }
}

/// Connects what `role` needs. The gateway of the distributed mode owns no
/// tables and reads no events, so it opens neither.
pub async fn connect(settings: &Settings, role: Role) -> anyhow::Result<Wiring> {
    if role == Role::Service(Service::Gateway) {
        return Ok(Wiring::new(None, None));
    }
    let db = Db::connect(&settings.database).await.context("database")?;
    for migrations in migrations(role, settings) {
        db.migrate(migrations).await.with_context(|| format!("migrating {}", migrations.component))?;
    }
    let event_log = wm_eventlog::open(&settings.event_log, &db).await.context("event_log")?;
    let mut wiring = Wiring::new(Some(db.clone()), Some(event_log));
    if role.mounts(Service::DeviceRegistry) {
        wiring.projections.extend(wm_device_registry::projections(&db));
    }
    if role.mounts(Service::TelemetryIngest) {
        wiring.projections.extend(wm_telemetry_ingest::projections(&db));
    }
    Ok(wiring)
}

/// The migrations of every component `role` runs; services add theirs here
/// as they gain tables. The embedded log's table lives in the SQLite
/// database, so it is migrated with it.
pub fn migrations(role: Role, settings: &Settings) -> Vec<&'static Migrations> {
    let mut all = Vec::new();
    if settings.kafka().is_none() {
        all.push(&wm_eventlog::embedded::MIGRATIONS);
    }
    if role.mounts(Service::Auth) {
        all.push(&wm_auth::MIGRATIONS);
    }
    if role.mounts(Service::DeviceRegistry) || role.mounts(Service::TelemetryIngest) {
        all.push(&wm_eventlog::outbox::MIGRATIONS);
    }
    if role.mounts(Service::DeviceRegistry) {
        all.extend([&wm_eventlog::checkpoint::MIGRATIONS, &wm_device_registry::MIGRATIONS]);
    }
    if role.mounts(Service::TelemetryIngest) {
        all.push(&wm_telemetry_ingest::MIGRATIONS);
    }
    all
}
