//! Distributed mode: the gateway forwards each `/api` route to the service
//! that owns it. Who owns what comes from each service's OpenAPI paths, so
//! the table cannot drift from the routes.

mod owners;
mod proxy;
mod settings;

pub use owners::{Owner, RouteTable};
pub use proxy::Forwarder;
pub use settings::{GatewaySettings, UpstreamSettings};

use actix_web::web;

/// Mounts the forwarding of every `/api` path not served by the gateway
/// itself. Mount it after the gateway's own routes and before the SPA.
pub fn configure(forwarder: Forwarder) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(web::Data::new(forwarder)).route("/api/{tail:.*}", web::route().to(proxy::forward));
    }
}
