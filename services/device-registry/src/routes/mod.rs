//! The registry's HTTP routes (spec §7: counts, gateways, water meters,
//! fieldcheck, search; the map, docs/map.md), and their OpenAPI description. Fixed paths are
//! registered before `{id}`, which takes any one segment so that a
//! malformed id gets a 400. The telemetry service's fixed paths under
//! `/gateways` (`gateways/gateway-activity`) must therefore be mounted
//! before this service (see `wmeter`'s `app.rs`).

pub(crate) mod bodies;
mod changes;
mod credentials;
mod detail;
mod fieldcheck;
mod lists;
mod map;
mod params;
mod schemas;
mod search;
mod transfer;

use actix_web::web;
use utoipa::OpenApi;
use wm_http::methods::not_a_fixed_path;

/// The registry's part of the API description.
#[derive(OpenApi)]
#[openapi(
    paths(
        lists::gateway_count,
        lists::lost_gateway_count,
        lists::meter_count,
        lists::unhealthy_meter_count,
        lists::lost_meter_count,
        lists::down_meter_count,
        lists::critical_meter_count,
        lists::gateways,
        lists::lost_gateways,
        lists::meters,
        lists::lost_meters,
        lists::down_meters,
        lists::critical_meters,
        detail::gateway,
        detail::gateway_by_serial,
        detail::meter,
        detail::meter_by_serial,
        changes::register_gateway,
        changes::register_meter,
        changes::patch_gateway,
        changes::patch_meter,
        changes::delete_gateway,
        changes::delete_meter,
        fieldcheck::get,
        search::get,
        map::view,
        map::extent,
        transfer::import,
        transfer::export,
        credentials::list,
        credentials::issue,
        credentials::revoke,
    ),
    components(schemas(wm_http::ApiError))
)]
pub struct RegistryApi;

pub fn configure(cfg: &mut web::ServiceConfig) {
    let (gateways, meters) = ("/api/proxy/gateways", "/api/proxy/wmeters");
    cfg.route(&format!("{gateways}/count"), web::get().to(lists::gateway_count))
        .route(&format!("{gateways}/lost/count"), web::get().to(lists::lost_gateway_count))
        .route(&format!("{gateways}/lost"), web::get().to(lists::lost_gateways))
        .route(&format!("{gateways}/serial/{{serial}}"), web::get().to(detail::gateway_by_serial))
        .route(gateways, web::get().to(lists::gateways))
        .route(&format!("{gateways}/"), web::post().to(changes::register_gateway))
        .route(&format!("{gateways}/{{id}}"), web::get().guard(not_a_fixed_path()).to(detail::gateway))
        .route(&format!("{gateways}/{{id}}"), web::patch().guard(not_a_fixed_path()).to(changes::patch_gateway))
        .route(&format!("{gateways}/{{id}}"), web::delete().guard(not_a_fixed_path()).to(changes::delete_gateway));
    cfg.route(&format!("{meters}/count"), web::get().to(lists::meter_count))
        .route(&format!("{meters}/unhealthy/count"), web::get().to(lists::unhealthy_meter_count))
        .route(&format!("{meters}/lost/count"), web::get().to(lists::lost_meter_count))
        .route(&format!("{meters}/down/count"), web::get().to(lists::down_meter_count))
        .route(&format!("{meters}/critical/count"), web::get().to(lists::critical_meter_count))
        .route(&format!("{meters}/lost"), web::get().to(lists::lost_meters))
        .route(&format!("{meters}/down"), web::get().to(lists::down_meters))
        .route(&format!("{meters}/critical"), web::get().to(lists::critical_meters))
        .route(&format!("{meters}/serial/{{serial}}"), web::get().to(detail::meter_by_serial))
        .route(meters, web::get().to(lists::meters))
        .route(&format!("{meters}/"), web::post().to(changes::register_meter))
        .route(&format!("{meters}/{{id}}"), web::get().guard(not_a_fixed_path()).to(detail::meter))
        .route(&format!("{meters}/{{id}}"), web::patch().guard(not_a_fixed_path()).to(changes::patch_meter))
        .route(&format!("{meters}/{{id}}"), web::delete().guard(not_a_fixed_path()).to(changes::delete_meter));
    cfg.route("/api/proxy/fieldcheck/{value}", web::get().to(fieldcheck::get))
        .route("/api/proxy/search", web::get().to(search::get))
        .route("/api/map", web::get().to(map::view))
        .route("/api/map/extent", web::get().to(map::extent))
        .route("/api/devices/import/{kind}", web::post().to(transfer::import))
        .route("/api/devices/export/{kind}", web::get().to(transfer::export))
        .route("/api/devices/gateways/{id}/credentials", web::get().to(credentials::list))
        .route("/api/devices/gateways/{id}/credentials", web::post().to(credentials::issue))
        .route("/api/devices/gateways/{id}/credentials/{credential}/revoke", web::post().to(credentials::revoke));
}
