//! API gateway: routing, JWT check, SPA files, OpenAPI, uptime and the
//! dashboard's settings.
//!
//! In the embedded mode the gateway's routes and every service's routes
//! share one actix `App`; the gateway adds the server uptime and serves the
//! built dashboard, and the API description at `/api/docs`. In the
//! distributed mode it also forwards every other `/api` path to the service
//! that owns it ([`forward`]).

mod error;
pub mod forward;
mod routes;

pub use routes::{dashboard::DashboardSettings, docs::configure as docs, spa::spa, uptime::Uptime};

use actix_web::web;

pub use error::GatewayError;

/// The service's name, as given to `wmeter run`.
pub const NAME: &str = "gateway";

/// The whole API description: the gateway's part with `parts` (the
/// services') merged in.
pub fn openapi(parts: impl IntoIterator<Item = utoipa::openapi::OpenApi>) -> utoipa::openapi::OpenApi {
    let mut api = <routes::docs::GatewayApi as utoipa::OpenApi>::openapi();
    for part in parts {
        api.merge(part);
    }
    routes::answers::complete(api)
}

/// Mounts the gateway's own API routes. Mount [`spa`] last: it answers
/// every path nothing else claimed.
pub fn configure(uptime: Uptime, dashboard: DashboardSettings) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(web::Data::new(uptime))
            .app_data(web::Data::new(dashboard))
            .route("/api/proxy/", web::get().to(routes::uptime::get))
            .route("/api/dashboard/settings", web::get().to(routes::dashboard::get));
    }
}
