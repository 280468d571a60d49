//! `/healthz` (alive), `/readyz` (dependencies reachable) and `/metrics`
//! (Prometheus text format), mounted by every service.

use std::{sync::Arc, time::Duration};

use actix_web::{HttpResponse, http::StatusCode, web};
use prometheus_client::{encoding::text::encode, registry::Registry};
use serde_json::{Map, Value, json};

/// One dependency that must be reachable for the service to take traffic:
/// its database, its event log, its MQTT broker.
#[async_trait::async_trait]
pub trait ReadinessCheck: Send + Sync {
    fn name(&self) -> &'static str;
    async fn check(&self) -> Result<(), String>;
}

/// A check is failed when it takes longer than this: a hung dependency must
/// not hang the probe.
const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// What the health endpoints need: the readiness checks and the frozen
/// metrics registry.
#[derive(Clone)]
pub struct Health {
    checks: Arc<Vec<Arc<dyn ReadinessCheck>>>,
    registry: Arc<Registry>,
}

impl std::fmt::Debug for Health {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<_> = self.checks.iter().map(|c| c.name()).collect();
        f.debug_struct("Health").field("checks", &names).finish_non_exhaustive()
    }
}

impl Health {
    pub fn new(checks: Vec<Arc<dyn ReadinessCheck>>, registry: Registry) -> Self {
        Self { checks: Arc::new(checks), registry: Arc::new(registry) }
    }

    /// Mounts the three endpoints.
    pub fn configure(self) -> impl FnOnce(&mut web::ServiceConfig) {
        move |cfg| {
            cfg.app_data(web::Data::new(self))
                .route("/healthz", web::get().to(healthz))
                .route("/readyz", web::get().to(readyz))
                .route("/metrics", web::get().to(metrics));
        }
    }
}

async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(json!({"status": "ok"}))
}

async fn readyz(health: web::Data<Health>) -> HttpResponse {
    let results = futures::future::join_all(health.checks.iter().map(|check| async move {
        let outcome = match tokio::time::timeout(CHECK_TIMEOUT, check.check()).await {
            Ok(result) => result,
            Err(_) => Err(format!("no answer within {}s", CHECK_TIMEOUT.as_secs())),
        };
        (check.name(), outcome)
    }))
    .await;
    let ready = results.iter().all(|(_, r)| r.is_ok());
    let checks: Map<String, Value> = results
        .into_iter()
        .map(|(name, r)| (name.to_owned(), Value::String(r.err().unwrap_or_else(|| "ok".to_owned()))))
        .collect();
    if ready {
        HttpResponse::Ok().json(json!({"status": "ready", "checks": checks}))
    } else {
        tracing::warn!(?checks, "not ready");
        HttpResponse::build(StatusCode::SERVICE_UNAVAILABLE).json(json!({
            "code": "not_ready",
            "message": "A dependency of this service is unavailable",
            "checks": checks,
        }))
    }
}

async fn metrics(health: web::Data<Health>) -> HttpResponse {
    let mut body = String::new();
    if let Err(e) = encode(&mut body, &health.registry) {
        tracing::error!(error = %e, "metrics encoding failed");
        return HttpResponse::InternalServerError().finish();
    }
    HttpResponse::Ok().content_type("application/openmetrics-text; version=1.0.0; charset=utf-8").body(body)
}

#[cfg(test)]
mod tests {
    use actix_web::{App, test};

    use super::*;

    struct Hung;

    #[async_trait::async_trait]
    impl ReadinessCheck for Hung {
        fn name(&self) -> &'static str {
            "broker"
        }

        async fn check(&self) -> Result<(), String> {
            std::future::pending().await
        }
    }

    #[actix_web::test]
    async fn a_hung_dependency_fails_readiness_within_the_timeout() {
        let health = Health::new(vec![Arc::new(Hung)], Registry::default());
        let app = test::init_service(App::new().configure(health.configure())).await;
        let started = std::time::Instant::now();
        let response = test::call_service(&app, test::TestRequest::get().uri("/readyz").to_request()).await;
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(started.elapsed() < CHECK_TIMEOUT + Duration::from_secs(2));
        let body: Value = test::read_body_json(response).await;
        assert_eq!(body["checks"]["broker"], "no answer within 2s");
    }
}
