use std::{ops::Deref, path::Path, sync::Arc, time::Duration};

pub use crate::suite::eventually;
use crate::suite::target::{Target, Users};
use chrono::Utc;
use futures::future::BoxFuture;
use tokio::sync::oneshot;
use wm_auth::{
    actions::{self, Actor},
    audit::{Audit, CLI_ACTOR},
};
use wm_domain::ManualClock;
use wm_eventlog::EventLog;
use wm_http::auth::Role as UserRole;
use wm_proto::Envelope;
use wm_storage::with_pool;
use wm_test_support::{
    TestDb,
    mqtt::{Mosquitto, SERVICE_LOGIN, SHARED_GROUP},
};
use wmeter::{
    Application, Role,
    config::{Mode, Settings},
};

/// The access-token key of every test app.
pub use wm_test_support::service::JWT_KEY;

/// A running application and what it needs to stay alive.
pub struct TestApp {
    /// The application through its HTTP API, as the suite reaches it.
    pub target: Target,
    stop: Option<oneshot::Sender<()>>,
    running: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
    _static_dir: tempfile::TempDir,
    db: Option<TestDb>,
    log: Option<Arc<dyn EventLog>>,
    /// The application's time: it stands still until a test moves it.
    pub clock: Arc<ManualClock>,
    /// The MQTT broker's address and the gateways' login on it.
    pub broker: Option<(std::net::SocketAddr, (String, String))>,
    /// The embedded broker's TLS address, when `mqtt.tls` gives it one.
    pub broker_tls: Option<std::net::SocketAddr>,
    _mosquitto: Option<Mosquitto>,
}

/// The embedded application on a free port, with its own SQLite database
/// and a static folder holding a stand-in dashboard.
pub async fn spawn_app() -> TestApp {
    let db = TestDb::sqlite().await;
    let mut settings = Settings::default();
    settings.database = db.settings().clone();
    spawn_with(settings, Mode::Embedded, Role::Embedded, Some(db)).await
}

/// The whole application in one process once per database backend: SQLite
/// with the embedded log and MQTT broker, and PostgreSQL with the Kafka log
/// and a Mosquitto of its own when those servers are configured.
pub async fn spawn_each(adjust: impl Fn(&mut Settings)) -> Vec<TestApp> {
    let mut apps = Vec::new();
    for db in TestDb::each().await {
        let mut settings = Settings::default();
        settings.database = db.settings().clone();
        let mut mosquitto = None;
        if db.backend() == wm_storage::Backend::Postgres {
            let Some(kafka) = wm_test_support::log::kafka() else { continue };
            settings.event_log = wm_eventlog::EventLogSettings::Kafka(kafka);
            let Some(broker) = Mosquitto::for_wmeter() else { continue };
            settings.mqtt.broker = broker.url();
            (settings.mqtt.username, settings.mqtt.password) =
                (SERVICE_LOGIN.to_owned(), Some(SERVICE_LOGIN.to_owned()));
            settings.mqtt.shared_group = SHARED_GROUP.to_owned();
            mosquitto = Some(broker);
        }
        adjust(&mut settings);
        let mut app = spawn_with(settings, Mode::Embedded, Role::Embedded, Some(db)).await;
        if let Some(broker) = mosquitto {
            app.broker = Some(broker.gateway_broker());
            app._mosquitto = Some(broker);
        }
        apps.push(app);
    }
    apps
}

/// A gateway whose four upstreams are all `upstream`. The distributed mode
/// asks for PostgreSQL, which the gateway never opens, and Kafka, whose auth
/// topic it follows (token versions and API keys): `None` without Kafka.
pub async fn spawn_gateway(upstream: &str) -> Option<TestApp> {
    let mut settings = Settings::default();
    settings.database.url = "postgres://nobody@127.0.0.1:1/none".to_owned();
    settings.event_log = wm_eventlog::EventLogSettings::Kafka(wm_test_support::log::kafka()?);
    let u = &mut settings.gateway.upstreams;
    for url in [&mut u.auth, &mut u.device_registry, &mut u.telemetry_ingest, &mut u.notification] {
        *url = Some(upstream.to_owned());
    }
    settings.gateway.connect_timeout_ms = 500;
    Some(spawn_with(settings, Mode::Distributed, Role::Service(wmeter::Service::ApiGateway), None).await)
}

/// `role` on a free port with `settings`, serving a stand-in dashboard.
pub async fn spawn_with(mut settings: Settings, mode: Mode, role: Role, db: Option<TestDb>) -> TestApp {
    let static_dir = tempfile::tempdir().unwrap();
    write(static_dir.path(), "index.html", "<!doctype html><title>w-meter</title><div id=\"root\"></div>");
    write(static_dir.path(), "assets/app-1234.js", "console.log('w-meter')");
    settings.http.port = 0;
    settings.mqtt.listen = "127.0.0.1:0".to_owned();
    // The shared gateway login, unless a test sets its own: most tests are
    // about what gateways send, not about the device plane.
    settings.mqtt.gateway_password.get_or_insert_with(|| "test-gateway-password".to_owned());
    settings.web.static_dir = static_dir.path().to_path_buf();
    settings.auth.jwt_key = Some(JWT_KEY.to_owned());
    // The device CA, made when a test first needs it, in the app's folder.
    settings.devices.ca_cert_file = static_dir.path().join("device-ca.crt");
    settings.devices.ca_key_file = static_dir.path().join("device-ca.key");
    settings.validate(mode).unwrap();
    let clock = Arc::new(ManualClock::new(Utc::now()));
    let app = Application::build_with_clock(&settings, role, clock.clone()).await.unwrap();
    let url = app.url();
    let log = app.event_log().cloned();
    let broker = app.embedded_broker().and_then(|(addr, shared)| Some((addr, shared?)));
    let broker_tls = app.embedded_broker_tls();
    let (stop, stopped) = oneshot::channel();
    let running = tokio::spawn(app.run_until(async move {
        let _ = stopped.await;
    }));
    let users: Arc<dyn Users> = Arc::new(DbUsers(db.as_ref().map(|db| db.db().clone()), log.clone()));
    TestApp {
        target: Target::new(url, JWT_KEY, users),
        stop: Some(stop),
        running: Some(running),
        _static_dir: static_dir,
        db,
        log,
        clock,
        broker,
        broker_tls,
        _mosquitto: None,
    }
}

/// The body of `/readyz` once it answers 200: the projections join their
/// consumer groups a moment after the start.
pub async fn until_ready(app: &TestApp) -> serde_json::Value {
    eventually("/readyz answers 200", || async {
        let response = app.get("/readyz").await;
        match response.status().as_u16() {
            200 => Some(response.json().await.unwrap()),
            _ => None,
        }
    })
    .await
}

impl Deref for TestApp {
    type Target = Target;

    fn deref(&self) -> &Target {
        &self.target
    }
}

/// Users straight into the app's database, recorded on its log, as
/// `wmeter user` does.
struct DbUsers(Option<wm_storage::Db>, Option<Arc<dyn EventLog>>);

impl DbUsers {
    fn db(&self) -> &wm_storage::Db {
        self.0.as_ref().expect("this app has a database")
    }

    async fn audit(&self) -> Audit {
        Audit::open(self.1.clone().expect("this app has an event log")).await.unwrap()
    }
}

impl Users for DbUsers {
    fn add<'a>(&'a self, username: &'a str, password: &'a str, role: UserRole) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let cli = Actor::local(CLI_ACTOR);
            actions::create(self.db(), &self.audit().await, &cli, (username, password, role), false).await.unwrap();
        })
    }

    fn disable<'a>(&'a self, username: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            actions::disable_named(self.db(), &self.audit().await, &Actor::local(CLI_ACTOR), username).await.unwrap();
        })
    }
}

impl TestApp {
    /// The app's device CA, as `wmeter broker-certificate` finds it (made
    /// by whichever asks first).
    pub fn device_ca(&self) -> wm_device_registry::device_ca::DeviceCa {
        let dir = self._static_dir.path();
        wm_device_registry::device_ca::DeviceCa::new(dir.join("device-ca.crt"), dir.join("device-ca.key"), true)
    }

    /// The application's event log.
    pub fn event_log(&self) -> Arc<dyn EventLog> {
        self.log.clone().expect("this app has an event log")
    }

    /// The notification service's projections over this app's database and
    /// log, for a test that rebuilds them.
    pub fn notification_projections(&self) -> Vec<Arc<dyn wm_eventlog::projection::Projection>> {
        let lost_after = Duration::from_secs(7200);
        let (state, _) =
            wm_notification::build(self.db().clone(), self.event_log(), self.clock.clone(), lost_after, lost_after);
        wm_notification::projections(&state)
    }

    /// A relay of telemetry ingest's events over this app's database and
    /// log, for a test that builds ingest's projections.
    pub fn ingest_relay(&self) -> wm_eventlog::outbox::Relay {
        wm_telemetry_ingest::relay(self.db().clone(), self.event_log())
    }

    /// The application's database, for arranging a test's data.
    pub fn db(&self) -> &wm_storage::Db {
        self.db.as_ref().expect("this app has a database")
    }

    /// Every event on `topic` so far, in log order within each partition.
    pub async fn events(&self, topic: &str) -> Vec<Envelope> {
        wm_test_support::log::events(self.event_log().as_ref(), topic).await
    }

    /// Removes the application's PostgreSQL database under it, as an outage
    /// would.
    pub async fn break_database(&self) {
        self.db.as_ref().expect("this app has a database").drop_now().await;
    }

    /// Asks for a graceful stop and waits for it.
    pub async fn stop(mut self) -> anyhow::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.running.take() {
            Some(running) => running.await.unwrap(),
            None => Ok(()),
        }
    }
}

fn write(dir: &Path, name: &str, content: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

/// Creates a user through the auth service (so its event reaches the
/// notification service) and waits until notifications know it.
pub async fn user(app: &TestApp, name: &str, role: UserRole) -> String {
    let audit = Audit::open(app.event_log()).await.unwrap();
    let user = actions::create(app.db(), &audit, &Actor::local(CLI_ACTOR), (name, "a-long-password", role), false)
        .await
        .unwrap();
    let id = user.id.clone();
    eventually("notifications know the user", || async {
        let sql = "SELECT COUNT(*) FROM notification_users WHERE user_id = $1";
        let n: i64 = with_pool!(app.db(), pool => sqlx::query_scalar(sql).bind(&id).fetch_one(pool).await).unwrap();
        (n == 1).then_some(())
    })
    .await;
    user.id
}

impl wm_test_support::gateway::Deployment for TestApp {
    fn broker(&self) -> Option<(std::net::SocketAddr, (String, String))> {
        self.broker.clone()
    }

    fn db(&self) -> &wm_storage::Db {
        self.db.as_ref().expect("this app has a database")
    }
}
