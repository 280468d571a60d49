//! Builds the HTTP server and its dependencies for one role: the whole
//! embedded process, or one service of the distributed mode.

use std::{net::TcpListener, sync::Arc, time::Duration};

use actix_web::{App, HttpServer, dev::Server, middleware::from_fn, web};
use anyhow::Context;
use prometheus_client::registry::Registry;
use wm_http::{
    HttpSettings, auth,
    health::{Health, ReadinessCheck},
    json_errors,
    metrics::{self, HttpMetrics},
};

use wm_domain::{Clock, SystemClock};

use crate::{
    config::Settings,
    readiness::{ConsumersCheck, DatabaseCheck, EventLogCheck, PrincipalsCheck},
    role::{Role, Service},
    services::Services,
    wiring::{self, Wiring},
};

/// A built, bound, not yet running application.
pub struct Application {
    port: u16,
    /// Whether it serves HTTPS itself (`http.tls`).
    https: bool,
    host: String,
    server: Server,
    wiring: Wiring,
    mqtt: Option<wm_telemetry_ingest::mqtt::Mqtt>,
    registry: Option<web::Data<wm_device_registry::RegistryState>>,
    /// The open notification streams, closed before HTTP drains.
    streams: Option<Arc<wm_notification::hub::Hub>>,
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
        let mut wiring = wiring::connect(settings, role, clock.clone()).await?;
        let listener = TcpListener::bind(settings.http.address())
            .with_context(|| format!("http: cannot listen on {}", settings.http.address()))?;
        let port = listener.local_addr()?.port();
        let mut metrics = Registry::with_labels(
            [(std::borrow::Cow::Borrowed("service"), std::borrow::Cow::Borrowed(role.name()))].into_iter(),
        );
        let services = Services::build(settings, role, &wiring, clock, &mut metrics).await?;
        let lag = wm_eventlog::projection::LagMetric::register(&mut metrics);
        wm_eventlog::outbox::RelayMetrics::register(&mut metrics);
        if let Some(db) = wiring.db() {
            metrics::DbPoolMetrics::register(&mut metrics, db.clone());
        }
        let server = http_server(settings, role, &wiring, &services, metrics, listener)?;
        let mut services = services;
        let mqtt = services.start(settings, role, &mut wiring).await?;
        wiring.spawn_consumers(&lag);
        Ok(Application {
            port,
            https: settings.http.tls.enabled().unwrap_or(false),
            host: settings.http.host.clone(),
            server,
            wiring,
            mqtt,
            registry: services.registry.clone(),
            streams: services.notification.as_ref().map(|n| n.hub.clone()),
            shutdown_timeout: Duration::from_secs(settings.http.shutdown_timeout_secs),
        })
    }

    /// The process's database, when it has one.
    pub fn db(&self) -> Option<&wm_storage::Db> {
        self.wiring.db()
    }

    /// The embedded MQTT broker's address, and the gateways' shared login
    /// on it if `mqtt.gateway_password` opts in to one, when this process
    /// runs a broker.
    pub fn embedded_broker(&self) -> Option<(std::net::SocketAddr, Option<(String, String)>)> {
        let mqtt = self.mqtt.as_ref()?;
        Some((mqtt.broker.as_ref()?.addr(), mqtt.gateway_login.clone()))
    }

    /// The embedded MQTT broker's TLS address, when it has a TLS listener.
    pub fn embedded_broker_tls(&self) -> Option<std::net::SocketAddr> {
        self.mqtt.as_ref()?.broker.as_ref()?.tls_addr()
    }

    /// The registry's write side, when this process runs the registry.
    pub fn registry(&self) -> Option<&wm_device_registry::actions::Actions> {
        self.registry.as_ref().map(|r| &r.actions)
    }

    /// Runs `task` in the background until the application stops.
    pub fn spawn<F>(&mut self, task: impl FnOnce(tokio_util::sync::CancellationToken) -> F)
    where
        F: Future<Output = ()> + Send + 'static,
    {
        self.wiring.spawn(task);
    }

    /// The process's event log, when it has one.
    pub fn event_log(&self) -> Option<&Arc<dyn wm_eventlog::EventLog>> {
        self.wiring.event_log()
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The base URL, e.g. `http://127.0.0.1:8080` (`https` with `http.tls`).
    pub fn url(&self) -> String {
        let scheme = if self.https { "https" } else { "http" };
        format!("{scheme}://{}:{}", self.host, self.port)
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
            // Streams never finish by themselves: end them, or draining waits them out.
            if let Some(streams) = &self.streams {
                streams.close_all();
            }
            tracing::info!(timeout_secs = self.shutdown_timeout.as_secs(), "draining HTTP");
            handle.stop(true).await;
        }
        if let Some(broker) = self.mqtt.as_ref().and_then(|m| m.broker.as_ref()) {
            broker.stop();
        }
        self.wiring.shutdown().await;
        tracing::info!("stopped");
        match served {
            Some(result) => result.context("HTTP server task")?.context("HTTP server"),
            None => Ok(()),
        }
    }
}

fn http_server(
    settings: &Settings,
    role: Role,
    wiring: &Wiring,
    services: &Services,
    mut metrics: Registry,
    listener: TcpListener,
) -> anyhow::Result<Server> {
    let http_metrics = HttpMetrics::register(&mut metrics);
    let health = Health::new(readiness_checks(wiring, services), metrics);
    let uptime = wm_api_gateway::Uptime::since_now();
    let api = wm_api_gateway::openapi([
        wm_auth::openapi(),
        wm_telemetry_ingest::openapi(),
        wm_device_registry::openapi(),
        wm_notification::openapi(),
    ]);
    let methods = web::Data::new(wm_http::methods::Methods::new(&api));
    let forwarder = forwarder(settings, role)?;
    let forwarded_for = web::Data::new(wm_http::ForwardedFor { trusted: settings.http.trust_forwarded_for });
    let (static_dir, dashboard) = (settings.web.static_dir.clone(), settings.web.dashboard());
    let (auth, registry, ingest) = (services.auth.clone(), services.registry.clone(), services.ingest.clone());
    let notification = services.notification.clone();
    let tokens = web::Data::new(services.tokens.clone());
    let tls = https(settings)?;
    let security = web::Data::new(settings.web.security_headers(tls.is_some()));
    let HttpSettings { max_body_bytes, shutdown_timeout_secs, .. } = settings.http;
    let server = HttpServer::new(move || {
        let mut app = App::new()
            .app_data(web::Data::new(http_metrics.clone()))
            .app_data(tokens.clone())
            .app_data(forwarded_for.clone())
            .app_data(methods.clone())
            .app_data(security.clone())
            .wrap(from_fn(auth::require_token))
            .wrap(from_fn(wm_http::cache::control))
            .wrap(from_fn(metrics::record))
            .wrap(from_fn(wm_http::security::headers))
            .wrap(from_fn(wm_http::trace::request))
            .configure(json_errors(max_body_bytes))
            .configure(health.clone().configure());
        if let Some(auth) = &auth {
            app = app.configure(wm_auth::configure(auth.clone()));
        }
        // Telemetry before the registry: the registry's `gateways/{id}`
        // would otherwise claim `gateways/gateway-activity`.
        if let Some(ingest) = &ingest {
            app = app.configure(wm_telemetry_ingest::configure(ingest.clone()));
        }
        if let Some(registry) = &registry {
            app = app.configure(wm_device_registry::configure(registry.clone()));
        }
        if let Some(notification) = &notification {
            app = app.configure(wm_notification::configure(notification.clone()));
        }
        if role.mounts(Service::ApiGateway) {
            app = app
                .configure(wm_api_gateway::configure(uptime, dashboard.clone()))
                .configure(wm_api_gateway::docs(api.clone()));
            if let Some(forwarder) = &forwarder {
                app = app.configure(wm_api_gateway::forward::configure(forwarder.clone()));
            }
            app = app.configure(wm_api_gateway::spa(static_dir.clone()));
        }
        app.default_service(web::to(wm_http::methods::Methods::fallback))
    })
    .disable_signals()
    .shutdown_timeout(shutdown_timeout_secs);
    let server = match tls {
        Some(config) => server.listen_rustls_0_23(listener, config)?,
        // HTTP/1.1, and HTTP/2 for a client (a proxy) that opens with its
        // preface: one connection then carries many streams.
        None => server.listen_auto_h2c(listener)?,
    };
    Ok(server.run())
}

/// HTTPS's server configuration, when `http.tls` names a certificate and key.
fn https(settings: &Settings) -> anyhow::Result<Option<tokio_rustls::rustls::ServerConfig>> {
    let tls = &settings.http.tls;
    if !tls.enabled().map_err(|(key, message)| crate::config::ConfigError::invalid(key, message))? {
        return Ok(None);
    }
    let read = |key: &str, path: &str| std::fs::read(path).with_context(|| format!("{key}: cannot read {path}"));
    let (certificate, key) = (read("http.tls.cert_file", &tls.cert_file)?, read("http.tls.key_file", &tls.key_file)?);
    let config = wm_mqtt::server_config(&certificate, &key, None).context("http.tls")?;
    Ok(Some(Arc::unwrap_or_clone(config)))
}

/// The gateway alone (`wmeter run gateway`) forwards the other services'
/// routes; it needs all their URLs.
fn forwarder(settings: &Settings, role: Role) -> anyhow::Result<Option<wm_api_gateway::forward::Forwarder>> {
    use wm_api_gateway::forward::{Forwarder, Owner, RouteTable};
    if role != Role::Service(Service::ApiGateway) {
        return Ok(None);
    }
    settings.gateway.validate(true).map_err(|(key, message)| crate::config::ConfigError::invalid(key, message))?;
    let table = RouteTable::new([
        (Owner::Auth, wm_auth::openapi()),
        (Owner::DeviceRegistry, wm_device_registry::openapi()),
        (Owner::TelemetryIngest, wm_telemetry_ingest::openapi()),
        (Owner::Notification, wm_notification::openapi()),
    ]);
    Ok(Some(Forwarder::new(table, settings.gateway.clone(), settings.http.max_body_bytes)?))
}

fn readiness_checks(wiring: &Wiring, services: &Services) -> Vec<Arc<dyn ReadinessCheck>> {
    let mut checks: Vec<Arc<dyn ReadinessCheck>> = Vec::new();
    if let Some(db) = wiring.db() {
        checks.push(Arc::new(DatabaseCheck(db.clone())));
    }
    if let Some(log) = wiring.event_log() {
        checks.push(Arc::new(EventLogCheck(log.clone())));
        checks.push(Arc::new(PrincipalsCheck(services.tokens.principals().clone())));
        if wiring.projections().iter().any(|p| p.live()) {
            checks.push(Arc::new(ConsumersCheck(wiring.membership().clone())));
        }
    }
    checks
}
