//! Builds the HTTP server and its dependencies for one role: the whole
//! embedded process, or one service of the distributed mode.

use std::{net::TcpListener, sync::Arc, time::Duration};

use actix_web::{App, HttpServer, dev::Server, middleware::from_fn, web};
use anyhow::Context;
use prometheus_client::registry::Registry;
use wm_http::{
    HttpSettings,
    auth::{self, AccessTokens},
    health::{Health, ReadinessCheck},
    json_errors,
    metrics::{self, HttpMetrics},
};

use wm_domain::{Clock, SystemClock};

use crate::{
    cli::Service,
    config::Settings,
    readiness::{DatabaseCheck, EventLogCheck},
    wiring::{self, Wiring},
};

/// What this process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Every service in one process (`wmeter serve`).
    Embedded,
    /// One service (`wmeter run <service>`).
    Service(Service),
}

impl Role {
    pub(crate) fn mounts(self, service: Service) -> bool {
        self == Role::Embedded || self == Role::Service(service)
    }
}

/// A built, bound, not yet running application.
pub struct Application {
    port: u16,
    host: String,
    server: Server,
    wiring: Wiring,
    shutdown_timeout: Duration,
}

impl std::fmt::Debug for Application {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Application").field("url", &self.url()).field("wiring", &self.wiring).finish_non_exhaustive()
    }
}

impl Application {
    /// Opens the database and the event log, applies migrations, and binds
    /// the listener (port 0 picks a free port, for tests).
    pub async fn build(settings: &Settings, role: Role) -> anyhow::Result<Application> {
        Self::build_with_clock(settings, role, Arc::new(SystemClock)).await
    }

    /// [`build`](Self::build), with the time taken from `clock` (tests move
    /// it instead of waiting).
    pub async fn build_with_clock(
        settings: &Settings,
        role: Role,
        clock: Arc<dyn Clock>,
    ) -> anyhow::Result<Application> {
        let mut wiring = wiring::connect(settings, role).await?;
        let listener = TcpListener::bind(settings.http.address())
            .with_context(|| format!("http: cannot listen on {}", settings.http.address()))?;
        let port = listener.local_addr()?.port();
        let tokens = crate::jwt_key::access_tokens(&settings.auth)?;
        let auth = match (wiring.db(), wiring.event_log()) {
            (Some(db), Some(log)) if role.mounts(Service::Auth) => {
                let audit = wm_auth::audit::Audit::open(log.clone()).await.context("event_log: the auth topic")?;
                Some(web::Data::new(wm_auth::AuthState::new(db.clone(), audit, &settings.auth.sessions).await?))
            }
            _ => None,
        };
        let registry = match (wiring.db(), wiring.event_log()) {
            (Some(db), Some(log)) if role.mounts(Service::DeviceRegistry) => {
                log.ensure_topics(&[wm_proto::topics::REGISTRY]).await.context("event_log: the registry topic")?;
                Some(wm_device_registry::build(db.clone(), log.clone(), clock, settings.devices.clone()))
            }
            _ => None,
        };
        let (registry, relay) = registry.unzip();
        let server = http_server(settings, role, &wiring, Services { tokens, auth, registry }, listener)?;
        if let Some(relay) = relay {
            wiring.spawn(|stop| relay.run(stop));
        }
        wiring.spawn_consumers();
        Ok(Application {
            port,
            host: settings.http.host.clone(),
            server,
            wiring,
            shutdown_timeout: Duration::from_secs(settings.http.shutdown_timeout_secs),
        })
    }

    /// The process's database, when it has one.
    pub fn db(&self) -> Option<&wm_storage::Db> {
        self.wiring.db()
    }

    /// The process's event log, when it has one.
    pub fn event_log(&self) -> Option<&Arc<dyn wm_eventlog::EventLog>> {
        self.wiring.event_log()
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The base URL, e.g. `http://127.0.0.1:8080`.
    pub fn url(&self) -> String {
        format!("http://{}:{}", self.host, self.port)
    }

    /// Serves until SIGTERM or Ctrl-C, then shuts down gracefully.
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        self.run_until(crate::shutdown::signal()).await
    }

    /// Serves until `stop` resolves or the server fails, then drains HTTP,
    /// stops the background consumers (which commit what they finished) and
    /// closes the database.
    pub async fn run_until(self, stop: impl Future<Output = ()>) -> anyhow::Result<()> {
        let handle = self.server.handle();
        let mut server = tokio::spawn(self.server);
        let served = tokio::select! {
            () = stop => None,
            result = &mut server => Some(result),
        };
        if served.is_none() {
            tracing::info!(timeout_secs = self.shutdown_timeout.as_secs(), "draining HTTP");
            handle.stop(true).await;
        }
        self.wiring.shutdown().await;
        tracing::info!("stopped");
        match served {
            Some(result) => result.context("HTTP server task")?.context("HTTP server"),
            None => Ok(()),
        }
    }
}

/// The state of the services this process mounts.
struct Services {
    tokens: AccessTokens,
    auth: Option<web::Data<wm_auth::AuthState>>,
    registry: Option<web::Data<wm_device_registry::RegistryState>>,
}

fn http_server(
    settings: &Settings,
    role: Role,
    wiring: &Wiring,
    services: Services,
    listener: TcpListener,
) -> anyhow::Result<Server> {
    let mut registry = Registry::with_labels(
        [(std::borrow::Cow::Borrowed("service"), std::borrow::Cow::Borrowed(role_name(role)))].into_iter(),
    );
    let http_metrics = HttpMetrics::register(&mut registry);
    let health = Health::new(readiness_checks(wiring), registry);
    let uptime = wm_gateway::Uptime::since_now();
    let api = wm_gateway::openapi([wm_auth::openapi(), wm_device_registry::openapi()]);
    let static_dir = settings.web.static_dir.clone();
    let Services { tokens, auth, registry } = services;
    let tokens = web::Data::new(tokens);
    let HttpSettings { max_body_bytes, shutdown_timeout_secs, .. } = settings.http;
    let server = HttpServer::new(move || {
        let mut app = App::new()
            .app_data(web::Data::new(http_metrics.clone()))
            .app_data(tokens.clone())
            .wrap(from_fn(auth::require_token))
            .wrap(from_fn(wm_gateway::cache_control))
            .wrap(from_fn(metrics::record))
            .configure(json_errors(max_body_bytes))
            .configure(health.clone().configure());
        if let Some(auth) = &auth {
            app = app.configure(wm_auth::configure(auth.clone()));
        }
        // Telemetry before the registry: the registry's `gateways/{id}`
        // would otherwise claim `gateways/gateway-activity`.
        if role.mounts(Service::TelemetryIngest) {
            app = app.configure(wm_telemetry_ingest::configure);
        }
        if let Some(registry) = &registry {
            app = app.configure(wm_device_registry::configure(registry.clone()));
        }
        if role.mounts(Service::Notification) {
            app = app.configure(wm_notification::configure);
        }
        if role.mounts(Service::Gateway) {
            app = app
                .configure(wm_gateway::configure(uptime))
                .configure(wm_gateway::docs(api.clone()))
                .configure(wm_gateway::spa(static_dir.clone()));
        }
        app.default_service(web::to(wm_http::not_found))
    })
    .disable_signals()
    .shutdown_timeout(shutdown_timeout_secs)
    .listen(listener)?
    .run();
    Ok(server)
}

fn readiness_checks(wiring: &Wiring) -> Vec<Arc<dyn ReadinessCheck>> {
    let mut checks: Vec<Arc<dyn ReadinessCheck>> = Vec::new();
    if let Some(db) = wiring.db() {
        checks.push(Arc::new(DatabaseCheck(db.clone())));
    }
    if let Some(log) = wiring.event_log() {
        checks.push(Arc::new(EventLogCheck(log.clone())));
    }
    checks
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Embedded => "embedded",
        Role::Service(service) => service.name(),
    }
}
