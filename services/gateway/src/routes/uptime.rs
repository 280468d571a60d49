use std::time::Instant;

use actix_web::{HttpResponse, web};
use serde::Serialize;

/// When this process started serving.
#[derive(Clone, Copy, Debug)]
pub struct Uptime(Instant);

impl Uptime {
    pub fn since_now() -> Self {
        Uptime(Instant::now())
    }
}

#[derive(Serialize)]
struct Body {
    /// Whole seconds since start-up.
    uptime: u64,
}

/// `GET /api/proxy/` → `{"uptime": seconds}`.
pub async fn get(started: web::Data<Uptime>) -> HttpResponse {
    HttpResponse::Ok().json(Body { uptime: started.0.elapsed().as_secs() })
}
