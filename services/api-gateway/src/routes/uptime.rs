use std::time::Instant;

use actix_web::{HttpResponse, web};
use serde::Serialize;
use utoipa::ToSchema;

/// When this process started serving.
#[derive(Clone, Copy, Debug)]
pub struct Uptime(Instant);

impl Uptime {
    pub fn since_now() -> Self {
        Uptime(Instant::now())
    }
}

/// How long the server has been up.
#[derive(Serialize, ToSchema)]
pub struct Body {
    /// Whole seconds since start-up.
    uptime: u64,
}

/// `GET /api/proxy/` → `{"uptime": seconds}`.
#[utoipa::path(get, path = "/api/proxy/", tag = "server",
    responses((status = 200, description = "Whole seconds since start-up", body = Body)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all)]
pub async fn get(started: web::Data<Uptime>) -> HttpResponse {
    HttpResponse::Ok().json(Body { uptime: started.0.elapsed().as_secs() })
}
