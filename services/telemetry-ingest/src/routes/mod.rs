//! Telemetry ingest's HTTP routes (spec §7) and their OpenAPI description.
//! The service is mounted before the registry, whose `gateways/{id}` would
//! otherwise claim `gateways/gateway-activity`; its own `wmeters/critical/{id}`
//! matches only ids, leaving `wmeters/critical/count` to the registry.

mod lists;
mod params;
mod shutdown;

use actix_web::web;
use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(
    paths(
        lists::all_activity,
        lists::gateway_activity,
        lists::meter_activity,
        lists::gateway_ble,
        lists::meter_ble,
        lists::discoveries,
        lists::consumption,
        lists::alerts,
        shutdown::get,
        shutdown::patch,
    ),
    components(schemas(wm_http::ApiError))
)]
pub struct TelemetryApi;

pub fn configure(cfg: &mut web::ServiceConfig) {
    let (gateways, meters) = ("/api/proxy/gateways", "/api/proxy/wmeters");
    cfg.route(&format!("{gateways}/gateway-activity"), web::get().to(lists::all_activity))
        .route(&format!("{gateways}/gateway-activity/{{id}}"), web::get().to(lists::gateway_activity))
        .route(&format!("{gateways}/ble-activity/{{id}}"), web::get().to(lists::gateway_ble))
        .route(&format!("{gateways}/peripheral-discovery/{{id}}"), web::get().to(lists::discoveries))
        .route(&format!("{meters}/gateway-activity/{{id}}"), web::get().to(lists::meter_activity))
        .route(&format!("{meters}/ble-activity/{{id}}"), web::get().to(lists::meter_ble))
        .route(&format!("{meters}/consumption/{{id}}"), web::get().to(lists::consumption))
        .route(&format!("{meters}/critical/{{id:[0-9a-fA-F]{{24}}}}"), web::get().to(lists::alerts))
        .route(&format!("{meters}/shutdown-requests/{{id}}"), web::get().to(shutdown::get))
        .route(&format!("{meters}/shutdown-requests/{{id}}"), web::patch().to(shutdown::patch));
}
