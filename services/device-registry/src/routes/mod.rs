//! The registry's HTTP routes (spec §7: counts, gateways, water meters,
//! fieldcheck, search). Fixed paths are registered before `{id}`, which
//! takes any one segment so that a malformed id gets a 400. The telemetry
//! service's fixed paths under `/gateways` (`gateways/gateway-activity`)
//! must therefore be mounted before this service (see `wmeter`'s `app.rs`).

mod bodies;
mod changes;
mod detail;
mod fieldcheck;
mod lists;
mod params;
mod search;

use actix_web::{HttpResponse, web};
use wm_domain::DeviceKind;

use self::lists::Which;
use crate::storage::rows::{GatewayRow, MeterRow};

/// What the generic handlers return.
type Handled = std::pin::Pin<Box<dyn Future<Output = Result<HttpResponse, wm_http::ApiError>>>>;

const GATEWAYS: &str = "/api/proxy/gateways";
const METERS: &str = "/api/proxy/wmeters";
/// A device id in a path; the handler answers 400 for a malformed one.
const ID: &str = "{id}";

pub fn configure(cfg: &mut web::ServiceConfig) {
    use DeviceKind::{Gateway, Meter};
    let path = |base: &str, tail: &str| format!("{base}{tail}");
    cfg.route(&path(GATEWAYS, "/count"), web::get().to(lists::count::<GatewayRow>(Which::All)))
        .route(&path(GATEWAYS, "/lost/count"), web::get().to(lists::count::<GatewayRow>(Which::Lost(Gateway))))
        .route(&path(GATEWAYS, "/lost"), web::get().to(lists::list::<GatewayRow>(Which::Lost(Gateway))))
        .route(&path(GATEWAYS, "/serial/{serial}"), web::get().to(detail::by_serial::<GatewayRow>(Gateway)))
        .route(GATEWAYS, web::get().to(lists::list::<GatewayRow>(Which::All)))
        .route(GATEWAYS, web::post().to(changes::register_gateway))
        .route(&path(GATEWAYS, "/"), web::post().to(changes::register_gateway))
        .route(&path(GATEWAYS, &format!("/{ID}")), web::get().to(detail::by_id::<GatewayRow>()))
        .route(&path(GATEWAYS, &format!("/{ID}")), web::patch().to(changes::patch_gateway))
        .route(&path(GATEWAYS, &format!("/{ID}")), web::delete().to(|c, s, id| changes::delete(Gateway, c, s, id)));
    cfg.route(&path(METERS, "/count"), web::get().to(lists::count::<MeterRow>(Which::All)))
        .route(&path(METERS, "/unhealthy/count"), web::get().to(lists::count::<MeterRow>(Which::Unhealthy)))
        .route(&path(METERS, "/lost/count"), web::get().to(lists::count::<MeterRow>(Which::Lost(Meter))))
        .route(&path(METERS, "/down/count"), web::get().to(lists::count::<MeterRow>(Which::Down)))
        .route(&path(METERS, "/critical/count"), web::get().to(lists::count::<MeterRow>(Which::Critical)))
        .route(&path(METERS, "/lost"), web::get().to(lists::list::<MeterRow>(Which::Lost(Meter))))
        .route(&path(METERS, "/down"), web::get().to(lists::list::<MeterRow>(Which::Down)))
        .route(&path(METERS, "/critical"), web::get().to(lists::list::<MeterRow>(Which::Critical)))
        .route(&path(METERS, "/serial/{serial}"), web::get().to(detail::by_serial::<MeterRow>(Meter)))
        .route(METERS, web::get().to(lists::list::<MeterRow>(Which::All)))
        .route(METERS, web::post().to(changes::register_meter))
        .route(&path(METERS, "/"), web::post().to(changes::register_meter))
        .route(&path(METERS, &format!("/{ID}")), web::get().to(detail::by_id::<MeterRow>()))
        .route(&path(METERS, &format!("/{ID}")), web::patch().to(changes::patch_meter))
        .route(&path(METERS, &format!("/{ID}")), web::delete().to(|c, s, id| changes::delete(Meter, c, s, id)));
    cfg.route("/api/proxy/fieldcheck/{value}", web::get().to(fieldcheck::get))
        .route("/api/proxy/search", web::get().to(search::get));
}
