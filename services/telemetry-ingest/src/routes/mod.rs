//! Telemetry ingest's HTTP routes (spec §7; alarms and valve commands,
//! docs/alarms.md; consumption series and leak-detector thresholds,
//! gateway traffic and exports, docs/analytics.md) and their OpenAPI description.
//! The service is mounted before the registry, whose `gateways/{id}` would
//! otherwise claim `gateways/gateway-activity`; its own `wmeters/critical/{id}`
//! matches only ids, leaving `wmeters/critical/count` to the registry.

mod alarm_params;
mod alarms;
mod exports;
mod lists;
mod params;
mod range;
mod rollups;
mod shutdown;
mod thresholds;
mod traffic;
mod valve;

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
        alarms::list,
        alarms::counts,
        alarms::assignees,
        alarms::get,
        alarms::acknowledge,
        alarms::assign,
        alarms::comment,
        alarms::clear,
        alarms::close,
        alarms::acknowledge_all,
        valve::timeline,
        valve::resend,
        rollups::series,
        rollups::top,
        traffic::traffic,
        exports::meter_index,
        exports::consumption,
        thresholds::get,
        thresholds::put,
    ),
    components(schemas(wm_http::ApiError))
)]
pub struct TelemetryApi;

/// An alarm's id in a path: 24 hex digits, so that `alarms/acknowledge`
/// and `alarms/counts` are never taken for one.
const ID: &str = "{id:[0-9a-fA-F]{24}}";

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
        .route(&format!("{meters}/shutdown-requests/{{id}}"), web::patch().to(shutdown::patch))
        .route("/api/alarms", web::get().to(alarms::list))
        .route("/api/alarms/counts", web::get().to(alarms::counts))
        .route("/api/alarms/assignees", web::get().to(alarms::assignees))
        .route("/api/alarms/acknowledge", web::post().to(alarms::acknowledge_all))
        .route(&format!("/api/alarms/{ID}"), web::get().to(alarms::get))
        .route(&format!("/api/alarms/{ID}/acknowledge"), web::post().to(alarms::acknowledge))
        .route(&format!("/api/alarms/{ID}/assign"), web::post().to(alarms::assign))
        .route(&format!("/api/alarms/{ID}/comment"), web::post().to(alarms::comment))
        .route(&format!("/api/alarms/{ID}/clear"), web::post().to(alarms::clear))
        .route(&format!("/api/alarms/{ID}/close"), web::post().to(alarms::close))
        .route("/api/valve-commands", web::get().to(valve::timeline))
        .route("/api/valve-commands/{id}/resend", web::post().to(valve::resend))
        .route("/api/rollups", web::get().to(rollups::series))
        .route("/api/rollups/top", web::get().to(rollups::top))
        .route("/api/traffic", web::get().to(traffic::traffic))
        .route("/api/exports/meter-index", web::get().to(exports::meter_index))
        .route("/api/exports/consumption", web::get().to(exports::consumption))
        .route("/api/thresholds/{id}", web::get().to(thresholds::get))
        .route("/api/thresholds/{id}", web::put().to(thresholds::put));
}
