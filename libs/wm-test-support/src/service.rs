//! One service under test: on a free port of 127.0.0.1, over a fresh
//! database and an event log of its own, behind the middleware `wmeter`
//! wraps every service in (the access-token check, the JSON error bodies,
//! caching, the trace, the 404/405 fallback). A service's API tests reach it only
//! through HTTP, and feed it what other services would as events on its
//! log.
//!
//! ```ignore
//! for app in spawn_each(async |h: &mut Harness| {
//!     let (state, relay) = wm_device_registry::build(h.db.clone(), h.log.clone(), h.clock.clone(), Default::default());
//!     Mount::new(wm_device_registry::openapi(), move |cfg| wm_device_registry::configure(state.clone())(cfg))
//!         .migrations([&wm_device_registry::MIGRATIONS])
//!         .relays([relay])
//! })
//! .await
//! {
//!     app.json("/api/proxy/gateways/count", 200).await;
//! }
//! ```

use std::{
    any::Any,
    net::{SocketAddr, TcpListener},
    ops::Deref,
    sync::Arc,
};

use actix_web::{App, HttpServer, dev::ServerHandle, middleware::from_fn, web};
use chrono::Utc;
use prometheus_client::registry::Registry;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use wm_domain::ManualClock;
use wm_eventlog::{
    EventLog, EventLogSettings,
    outbox::Relay,
    projection::{self, LagMetric, Projection, RunOptions},
};
use wm_http::{
    HttpSettings,
    auth::{AccessTokens, JwtSettings},
    json_errors,
    methods::Methods,
};
use wm_proto::Envelope;
use wm_storage::{Backend, Db, Migrations};

use crate::{
    TestDb,
    target::{NoUsers, Target},
};

/// The key that signs the access tokens of every service under test.
pub const JWT_KEY: &str = "test-key-test-key-test-key-test-key";

/// What a service's setup gets: its database, its log, the test's clock,
/// a metrics registry, and the means to run background tasks.
pub struct Harness {
    pub db: Db,
    pub log: Arc<dyn EventLog>,
    /// The service's time: it stands still until a test moves it.
    pub clock: Arc<ManualClock>,
    pub metrics: Registry,
    /// The MQTT broker gateways reach, and their login, when the service
    /// runs one or connects to one ([`crate::gateway`]).
    pub broker: Option<(SocketAddr, (String, String))>,
    stop: CancellationToken,
    tasks: JoinSet<()>,
    kept: Vec<Box<dyn Any + Send>>,
}

impl std::fmt::Debug for Harness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Harness").field("db", &self.db).finish_non_exhaustive()
    }
}

impl Harness {
    /// Which database the service runs on.
    pub fn backend(&self) -> Backend {
        self.db.backend()
    }

    /// The token cancelled when the test's app stops.
    pub fn stop_token(&self) -> CancellationToken {
        self.stop.clone()
    }

    /// Runs `task` until the app stops; it is awaited then.
    pub fn spawn<F>(&mut self, task: impl FnOnce(CancellationToken) -> F)
    where
        F: Future<Output = ()> + Send + 'static,
    {
        self.tasks.spawn(task(self.stop.clone()));
    }

    /// Keeps `value` alive as long as the app (a broker of the test's own).
    pub fn keep(&mut self, value: impl Any + Send) {
        self.kept.push(Box::new(value));
    }
}

/// What the service under test mounts, and what runs beside it.
pub struct Mount {
    openapi: utoipa::openapi::OpenApi,
    configure: Arc<dyn Fn(&mut web::ServiceConfig) + Send + Sync>,
    migrations: Vec<&'static Migrations>,
    projections: Vec<Arc<dyn Projection>>,
    relays: Vec<Relay>,
}

impl std::fmt::Debug for Mount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mount").field("migrations", &self.migrations).finish_non_exhaustive()
    }
}

impl Mount {
    /// The service's routes (`configure` is called once per HTTP worker) and
    /// its part of the API description.
    pub fn new(
        openapi: utoipa::openapi::OpenApi,
        configure: impl Fn(&mut web::ServiceConfig) + Send + Sync + 'static,
    ) -> Self {
        Self {
            openapi,
            configure: Arc::new(configure),
            migrations: Vec::new(),
            projections: Vec::new(),
            relays: Vec::new(),
        }
    }

    /// The tables it needs, applied before anything runs.
    pub fn migrations(mut self, migrations: impl IntoIterator<Item = &'static Migrations>) -> Self {
        self.migrations.extend(migrations);
        self
    }

    /// Its projections, each run live as `wmeter` runs them.
    pub fn projections(mut self, projections: impl IntoIterator<Item = Arc<dyn Projection>>) -> Self {
        self.projections.extend(projections);
        self
    }

    /// Its outbox relays.
    pub fn relays(mut self, relays: impl IntoIterator<Item = Relay>) -> Self {
        self.relays.extend(relays);
        self
    }
}

/// A running service and what it needs to stay alive.
pub struct ServiceApp {
    /// The service through its HTTP API.
    pub target: Target,
    pub clock: Arc<ManualClock>,
    /// As [`Harness::broker`].
    pub broker: Option<(SocketAddr, (String, String))>,
    db: TestDb,
    log: Arc<dyn EventLog>,
    server: ServerHandle,
    stop: CancellationToken,
    tasks: JoinSet<()>,
    _kept: Vec<Box<dyn Any + Send>>,
}

/// The service `setup` mounts, once per database backend: SQLite with the
/// embedded log, and PostgreSQL with the Kafka log of a namespace of its
/// own when those servers are configured.
pub async fn spawn_each(setup: impl AsyncFn(&mut Harness) -> Mount) -> Vec<ServiceApp> {
    let mut apps = Vec::new();
    for db in TestDb::each().await {
        let log_settings = match db.backend() {
            Backend::Sqlite => EventLogSettings::Embedded(Default::default()),
            Backend::Postgres => {
                let Some(kafka) = crate::log::kafka() else { continue };
                EventLogSettings::Kafka(kafka)
            }
        };
        apps.push(spawn(db, &log_settings, &setup).await);
    }
    apps
}

/// The service `setup` mounts, on SQLite with the embedded log.
pub async fn spawn_sqlite(setup: impl AsyncFn(&mut Harness) -> Mount) -> ServiceApp {
    spawn(TestDb::sqlite().await, &EventLogSettings::Embedded(Default::default()), &setup).await
}

async fn spawn(db: TestDb, log: &EventLogSettings, setup: &impl AsyncFn(&mut Harness) -> Mount) -> ServiceApp {
    let log = wm_eventlog::open(log, db.db()).await.expect("open the test's event log");
    let mut harness = Harness {
        db: db.db().clone(),
        log: log.clone(),
        clock: Arc::new(ManualClock::new(Utc::now())),
        metrics: Registry::default(),
        broker: None,
        stop: CancellationToken::new(),
        tasks: JoinSet::new(),
        kept: Vec::new(),
    };
    let mount = setup(&mut harness).await;
    let outbox = !mount.relays.is_empty();
    let checkpoints = !mount.projections.is_empty();
    let needed = [(outbox, &wm_eventlog::outbox::MIGRATIONS), (checkpoints, &wm_eventlog::checkpoint::MIGRATIONS)];
    for migrations in needed.into_iter().filter_map(|(needed, m)| needed.then_some(m)).chain(mount.migrations) {
        db.migrate(migrations).await.expect("migrate the test's database");
    }
    for relay in mount.relays {
        harness.spawn(|stop| relay.run(stop));
    }
    let lag = LagMetric::register(&mut harness.metrics);
    for p in mount.projections.into_iter().filter(|p| p.live()) {
        let (log, lag) = (log.clone(), lag.clone());
        harness.spawn(|stop| async move {
            projection::run(log.as_ref(), p.as_ref(), RunOptions::default(), &lag, &Default::default(), stop).await
        });
    }
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let url = format!("http://{}", listener.local_addr().expect("its address"));
    let server = serve(listener, &mount.openapi, mount.configure);
    let Harness { clock, broker, stop, tasks, kept, .. } = harness;
    let handle = server.handle();
    tokio::spawn(server);
    ServiceApp {
        target: Target::new(url, JWT_KEY, Arc::new(NoUsers)),
        clock,
        broker,
        db,
        log,
        server: handle,
        stop,
        tasks,
        _kept: kept,
    }
}

/// The service's routes behind the middleware every service has.
fn serve(
    listener: TcpListener,
    openapi: &utoipa::openapi::OpenApi,
    configure: Arc<dyn Fn(&mut web::ServiceConfig) + Send + Sync>,
) -> actix_web::dev::Server {
    let tokens = web::Data::new(AccessTokens::new(JWT_KEY.as_bytes(), JwtSettings::default()).expect("a valid key"));
    let methods = web::Data::new(Methods::new(openapi));
    let max_body_bytes = HttpSettings::default().max_body_bytes;
    HttpServer::new(move || {
        let configure = configure.clone();
        App::new()
            .app_data(tokens.clone())
            .app_data(methods.clone())
            .wrap(from_fn(wm_http::auth::require_token))
            .wrap(from_fn(wm_http::cache::control))
            .wrap(from_fn(wm_http::trace::request))
            .configure(json_errors(max_body_bytes))
            .configure(move |cfg| configure(cfg))
            .default_service(web::to(Methods::fallback))
    })
    .workers(1)
    .disable_signals()
    .listen(listener)
    .expect("serve on the test's port")
    .run()
}

impl std::fmt::Debug for ServiceApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServiceApp").field("url", &self.target.url).finish_non_exhaustive()
    }
}

impl Deref for ServiceApp {
    type Target = Target;

    fn deref(&self) -> &Target {
        &self.target
    }
}

impl crate::gateway::Deployment for ServiceApp {
    fn broker(&self) -> Option<(SocketAddr, (String, String))> {
        self.broker.clone()
    }

    fn db(&self) -> &Db {
        self.db.db()
    }
}

impl ServiceApp {
    /// The service's database, for arranging a test's data.
    pub fn db(&self) -> &Db {
        self.db.db()
    }

    /// The service's event log.
    pub fn event_log(&self) -> Arc<dyn EventLog> {
        self.log.clone()
    }

    /// Appends events to the service's log, as another service would.
    pub async fn publish(&self, envelopes: &[Envelope]) {
        crate::log::publish(self.log.as_ref(), envelopes).await;
    }

    /// Every event on `topic` so far, in log order within each partition.
    pub async fn events(&self, topic: &str) -> Vec<Envelope> {
        crate::log::events(self.log.as_ref(), topic).await
    }

    /// Stops serving and stops the background tasks, waiting for both.
    pub async fn stop(mut self) {
        self.server.stop(true).await;
        self.stop.cancel();
        while self.tasks.join_next().await.is_some() {}
    }
}
