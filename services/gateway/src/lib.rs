//! API gateway: routing, JWT check, SPA files, OpenAPI and uptime.
//!
//! In the embedded mode the gateway's routes and every service's routes
//! share one actix `App`; the gateway adds the server uptime and serves the
//! built dashboard. Forwarding to separate services (distributed mode), the
//! JWT check and `/api/docs` arrive with their issues.

mod routes;

pub use routes::{
    spa::{cache_control, spa},
    uptime::Uptime,
};

use actix_web::web;

/// The service's name, as given to `wmeter run`.
pub const NAME: &str = "gateway";

/// Mounts the gateway's own API routes. Mount [`spa`] last: it answers
/// every path nothing else claimed.
pub fn configure(uptime: Uptime) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(web::Data::new(uptime)).route("/api/proxy/", web::get().to(routes::uptime::get));
    }
}
