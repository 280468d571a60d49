//! `GET /api/proxy/search?q=…&radius=…` → an array of gateways and meters.

use actix_web::{HttpResponse, web};
use serde::Deserialize;
use utoipa::IntoParams;
use wm_http::{ApiError, auth::Caller};

use crate::{
    error::RegistryError,
    json::{DeviceJson, GatewayJson, MeterJson},
    search::{Found, search},
    state::RegistryState,
};

/// The widest radius accepted, in metres.
pub const MAX_RADIUS_M: f64 = 50_000.0;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// A name, serial, IMEI, phone or address (colons optional), or a
    /// `longitude,latitude` point.
    #[param(value_type = String, required = true, example = "GTW-AB12")]
    q: Option<String>,
    /// Metres around each match whose devices join the results (0 = off).
    #[param(value_type = Option<f64>, minimum = 0, maximum = 50000, example = 150)]
    radius: Option<String>,
}

/// Search gateways and meters; exact matches first, at most 100.
#[utoipa::path(get, path = "/api/proxy/search", tag = "search", params(SearchQuery),
    responses(
        (status = 200, description = "Gateways (with an imei) and meters", body = Vec<DeviceJson>),
        (status = 400, description = "q is missing or radius malformed", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn get(
    caller: Caller,
    state: web::Data<RegistryState>,
    query: web::Query<SearchQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = query.q.as_deref().ok_or_else(|| RegistryError::BadRequest("q is required".to_owned()))?;
    let radius = match query.radius.as_deref() {
        None | Some("") => 0.0,
        Some(r) => r.parse::<f64>().ok().filter(|r| (0.0..=MAX_RADIUS_M).contains(r)).ok_or_else(|| {
            RegistryError::BadRequest(format!("radius must be a number of metres from 0 to {MAX_RADIUS_M}, not {r:?}"))
        })?,
    };
    let now = state.now();
    let found: Vec<DeviceJson> = search(state.db(), q, radius)
        .await?
        .into_iter()
        .map(|f| match f {
            Found::Gateway(g) => DeviceJson::Gateway(GatewayJson::new(g, now, &state.settings)),
            Found::Meter(m) => DeviceJson::Meter(MeterJson::from(m)),
        })
        .collect();
    Ok(HttpResponse::Ok().json(found))
}
