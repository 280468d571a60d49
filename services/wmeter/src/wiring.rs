//! Opens what a role needs: the database (with every owned migration
//! applied) and the event log. The same code serves both modes; only the
//! adapters chosen here differ.

use std::{sync::Arc, time::Duration};

use anyhow::Context;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use wm_eventlog::{
    EventLog,
    membership::Membership,
    projection::{self, LagMetric, Projection, RunOptions},
};
use wm_storage::{Db, Migrations};

use wm_domain::Clock;

use crate::{
    config::Settings,
    role::{Role, Service},
};

/// How long a stopping process waits for its Kafka consumers to leave their
/// groups: the HTTP drain (20 s) and this fit in Kubernetes' 45 s grace.
const LEAVE_WAIT: Duration = Duration::from_secs(10);

/// The connections and background consumers of a running process, stopped
/// by [`Wiring::shutdown`].
#[derive(Debug)]
pub struct Wiring {
    db: Option<Db>,
    event_log: Option<Arc<dyn EventLog>>,
    projections: Vec<Arc<dyn Projection>>,
    /// The notification service's state and relay, when this role runs it
    /// (its projections need them).
    notification: Option<(actix_web::web::Data<wm_notification::NotificationState>, wm_eventlog::outbox::Relay)>,
    /// The relay of telemetry ingest's events, when this role runs it (its
    /// leak detectors stage alarms from a projection), and where its
    /// projection tells the broker of revoked gateway credentials.
    ingest_relay: Option<(wm_eventlog::outbox::Relay, wm_telemetry_ingest::identities::Revocations)>,
    /// Which live projections have joined their groups (readiness).
    membership: Membership,
    stop: CancellationToken,
    consumers: JoinSet<()>,
}

impl Wiring {
    fn new(db: Option<Db>, event_log: Option<Arc<dyn EventLog>>) -> Self {
        Self {
            db,
            event_log,
            projections: Vec::new(),
            notification: None,
            ingest_relay: None,
            membership: Membership::default(),
            stop: CancellationToken::new(),
            consumers: JoinSet::new(),
        }
    }

    pub fn db(&self) -> Option<&Db> {
        self.db.as_ref()
    }

    pub fn event_log(&self) -> Option<&Arc<dyn EventLog>> {
        self.event_log.as_ref()
    }

    /// The notification service's state and relay, when this role runs it.
    pub fn notification(
        &self,
    ) -> Option<&(actix_web::web::Data<wm_notification::NotificationState>, wm_eventlog::outbox::Relay)> {
        self.notification.as_ref()
    }

    /// The relay of telemetry ingest's events, when this role runs it.
    pub fn ingest_relay(&self) -> Option<&(wm_eventlog::outbox::Relay, wm_telemetry_ingest::identities::Revocations)> {
        self.ingest_relay.as_ref()
    }

    /// Which live projections have joined their groups: every one is
    /// expected from the start, so the process is not ready before they
    /// joined.
    pub fn membership(&self) -> &Membership {
        &self.membership
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
    pub fn spawn_consumers(&mut self, lag: &LagMetric) {
        let Some(log) = self.event_log.clone() else { return };
        for p in self.projections.iter().filter(|p| p.live()) {
            let (log, stop, p, lag) = (log.clone(), self.stop.clone(), p.clone(), lag.clone());
            let membership = self.membership.clone();
            self.consumers.spawn(async move {
                projection::run(log.as_ref(), p.as_ref(), RunOptions::default(), &lag, &membership, stop).await;
            });
        }
    }

    /// Stops the consumers (each finishes its batch and commits), waits a
    /// bounded time for the Kafka ones to leave their groups, then closes
    /// the database. Call it after the HTTP server stopped.
    pub async fn shutdown(mut self) {
        self.stop.cancel();
        while self.consumers.join_next().await.is_some() {}
        if !wm_eventlog::kafka::until_closed(LEAVE_WAIT).await {
            tracing::warn!(
                wait_secs = LEAVE_WAIT.as_secs(),
                "a Kafka consumer had not left its group when the process stopped: \
                 its partitions wait for its session to time out"
            );
        }
        if let Some(db) = self.db {
            db.close().await;
        }
    }
}

/// Connects what `role` needs. The gateway of the distributed mode owns no
/// tables: it opens only the event log, to follow the auth topic (token
/// versions and API keys).
pub async fn connect(settings: &Settings, role: Role, clock: Arc<dyn Clock>) -> anyhow::Result<Wiring> {
    if role == Role::Service(Service::ApiGateway) {
        let event_log = wm_eventlog::open_without_db(&settings.event_log).context("event_log")?;
        return Ok(Wiring::new(None, event_log));
    }
    let db = Db::connect(&settings.database).await.context("database")?;
    for migrations in migrations(role, settings) {
        db.migrate(migrations).await.with_context(|| format!("migrating {}", migrations.component))?;
    }
    let event_log = wm_eventlog::open(&settings.event_log, &db).await.context("event_log")?;
    let mut wiring = Wiring::new(Some(db.clone()), Some(event_log.clone()));
    if role.mounts(Service::Auth) {
        wiring.projections.extend(wm_auth::projections(&db));
    }
    if role.mounts(Service::DeviceRegistry) {
        wiring.projections.extend(wm_device_registry::projections(&db, clock.clone()));
    }
    if role.mounts(Service::TelemetryIngest) {
        let relay = wm_telemetry_ingest::relay(db.clone(), event_log.clone());
        let revocations = wm_telemetry_ingest::identities::Revocations::default();
        let plumbing = (&relay, &revocations);
        wiring.projections.extend(wm_telemetry_ingest::projections(&db, &settings.ingest(), clock.clone(), plumbing));
        wiring.ingest_relay = Some((relay, revocations));
    }
    if role.mounts(Service::Notification) {
        let lost_after = settings.devices.gateway_lost_after().to_std().unwrap_or(std::time::Duration::MAX);
        let heartbeat = std::time::Duration::from_secs(settings.notifications.heartbeat_secs);
        let (state, relay) = wm_notification::build(db, event_log, clock, lost_after, heartbeat);
        wiring.projections.extend(wm_notification::projections(&state));
        wiring.notification = Some((state, relay));
    }
    for p in wiring.projections.iter().filter(|p| p.live()) {
        wiring.membership.expect(p.name());
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
    if [Service::DeviceRegistry, Service::TelemetryIngest, Service::Notification].into_iter().any(|s| role.mounts(s)) {
        all.push(&wm_eventlog::outbox::MIGRATIONS);
    }
    // The registry's state and the notification directory mark a rebuild
    // under way there (the registry keeps its checkpoints there too).
    if [Service::DeviceRegistry, Service::Notification].into_iter().any(|s| role.mounts(s)) {
        all.push(&wm_eventlog::checkpoint::MIGRATIONS);
    }
    if role.mounts(Service::DeviceRegistry) {
        all.push(&wm_device_registry::MIGRATIONS);
    }
    if role.mounts(Service::TelemetryIngest) {
        all.push(&wm_telemetry_ingest::MIGRATIONS);
    }
    if role.mounts(Service::Notification) {
        all.push(&wm_notification::MIGRATIONS);
    }
    all
}
