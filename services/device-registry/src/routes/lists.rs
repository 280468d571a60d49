//! Lists and counts of gateways and meters, one documented route each.

use actix_web::{HttpResponse, web};
use serde::Serialize;
use utoipa::ToSchema;
use wm_domain::DeviceKind;
use wm_http::{ApiError, auth::Caller};

use super::params::ListQuery;
use crate::{
    json::{GatewayJson, MeterJson, Show},
    state::RegistryState,
    storage::{
        lists::{self, Filter, Table},
        rows::{GatewayRow, MeterRow},
    },
};

/// `{"count": n}`.
#[derive(Serialize, ToSchema)]
pub struct Count {
    pub count: i64,
}

async fn list<T: Table + Show>(
    state: &RegistryState,
    filter: Filter,
    query: &ListQuery,
) -> Result<HttpResponse, ApiError> {
    let rows: Vec<T> = lists::list(state.db(), filter, query.page()?).await?;
    let now = state.now();
    let body: Vec<T::Json> = rows.into_iter().map(|row| row.show(now, &state.settings)).collect();
    Ok(HttpResponse::Ok().json(body))
}

async fn count<T: Table>(state: &RegistryState, filter: Filter) -> Result<HttpResponse, ApiError> {
    let count = lists::count::<T>(state.db(), filter).await?;
    Ok(HttpResponse::Ok().json(Count { count }))
}

/// A documented list route: `GET path?max&start&reverse`.
macro_rules! list_route {
    ($name:ident, $path:tt, $tag:tt, $row:ident, $json:ident, $doc:tt, |$state:ident| $filter:expr) => {
        #[doc = $doc]
        #[utoipa::path(get, path = $path, tag = $tag, params(ListQuery), responses(
                                    (status = 200, description = $doc, body = Vec<$json>),
                                    (status = 400, description = "max, start or reverse is malformed", body = ApiError),
                                    (status = 401, description = "No valid access token", body = ApiError),
                                ), security(("bearer" = [])))]
        #[tracing::instrument(skip_all, fields(user = caller.user_id))]
        pub async fn $name(
            caller: Caller,
            $state: web::Data<RegistryState>,
            query: web::Query<ListQuery>,
        ) -> Result<HttpResponse, ApiError> {
            list::<$row>(&$state, $filter, &query).await
        }
    };
}

/// A documented count route: `GET path` → `{"count": n}`.
macro_rules! count_route {
    ($name:ident, $path:tt, $tag:tt, $row:ident, $doc:tt, |$state:ident| $filter:expr) => {
        #[doc = $doc]
        #[utoipa::path(get, path = $path, tag = $tag, responses(
                                            (status = 200, description = $doc, body = Count),
                                            (status = 401, description = "No valid access token", body = ApiError),
                                        ), security(("bearer" = [])))]
        #[tracing::instrument(skip_all, fields(user = caller.user_id))]
        pub async fn $name(caller: Caller, $state: web::Data<RegistryState>) -> Result<HttpResponse, ApiError> {
            count::<$row>(&$state, $filter).await
        }
    };
}

list_route!(
    gateways,
    "/api/proxy/gateways",
    "gateways",
    GatewayRow,
    GatewayJson,
    "Gateways, paged by registeredAt",
    |s| Filter::All
);
list_route!(lost_gateways, "/api/proxy/gateways/lost", "gateways", GatewayRow, GatewayJson, "Lost gateways", |s| s
    .lost(DeviceKind::Gateway));
list_route!(
    meters,
    "/api/proxy/wmeters",
    "water meters",
    MeterRow,
    MeterJson,
    "Water meters, paged by registeredAt",
    |s| Filter::All
);
list_route!(lost_meters, "/api/proxy/wmeters/lost", "water meters", MeterRow, MeterJson, "Lost water meters", |s| s
    .lost(DeviceKind::Meter));
list_route!(
    down_meters,
    "/api/proxy/wmeters/down",
    "water meters",
    MeterRow,
    MeterJson,
    "Meters switched off by a confirmed shutdown",
    |s| Filter::Down
);
list_route!(
    critical_meters,
    "/api/proxy/wmeters/critical",
    "water meters",
    MeterRow,
    MeterJson,
    "Meters with a raised alert",
    |s| Filter::Critical
);

count_route!(gateway_count, "/api/proxy/gateways/count", "counts", GatewayRow, "How many gateways", |s| Filter::All);
count_route!(
    lost_gateway_count,
    "/api/proxy/gateways/lost/count",
    "counts",
    GatewayRow,
    "How many gateways are lost",
    |s| s.lost(DeviceKind::Gateway)
);
count_route!(meter_count, "/api/proxy/wmeters/count", "counts", MeterRow, "How many water meters", |s| Filter::All);
count_route!(
    unhealthy_meter_count,
    "/api/proxy/wmeters/unhealthy/count",
    "counts",
    MeterRow,
    "How many meters are lost, down or critical (each once)",
    |s| s.unhealthy()
);
count_route!(lost_meter_count, "/api/proxy/wmeters/lost/count", "counts", MeterRow, "How many meters are lost", |s| s
    .lost(DeviceKind::Meter));
count_route!(down_meter_count, "/api/proxy/wmeters/down/count", "counts", MeterRow, "How many meters are down", |s| {
    Filter::Down
});
count_route!(
    critical_meter_count,
    "/api/proxy/wmeters/critical/count",
    "counts",
    MeterRow,
    "How many meters are critical",
    |s| Filter::Critical
);
