//! The telemetry lists of the spec (§7), newest first.

use actix_web::{HttpResponse, web};
use serde::Deserialize;
use utoipa::IntoParams;
use wm_http::{ApiError, auth::Caller};

use super::params::{ListQuery, id_of};
use crate::{
    error::IngestError,
    state::IngestState,
    storage::reads::{self, Activity, Ble, Consumption, CriticalAlert, Discovery},
};

/// Gateway activity of the whole network (the overview asks for 50).
#[utoipa::path(get, path = "/api/proxy/gateways/gateway-activity", tag = "telemetry", params(ListQuery),
    responses((status = 200, body = Vec<Activity>), (status = 400, body = ApiError)), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn all_activity(
    caller: Caller,
    state: web::Data<IngestState>,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let rows = reads::gateway_activity(&state.db, &query.slice(None)?).await?;
    Ok(HttpResponse::Ok().json(rows))
}

/// One gateway's activity, optionally with one meter (`meterId`).
#[utoipa::path(get, path = "/api/proxy/gateways/gateway-activity/{id}", tag = "telemetry",
    params(("id" = String, Path, description = "The gateway's id"), ListQuery),
    responses((status = 200, body = Vec<Activity>), (status = 400, body = ApiError)), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn gateway_activity(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let rows = reads::gateway_activity(&state.db, &query.slice(Some(("gateway_id", &id)))?).await?;
    Ok(HttpResponse::Ok().json(rows))
}

/// The activity about one meter, optionally through one gateway (`gatewayId`).
#[utoipa::path(get, path = "/api/proxy/wmeters/gateway-activity/{id}", tag = "telemetry",
    params(("id" = String, Path, description = "The meter's id"), ListQuery),
    responses((status = 200, body = Vec<Activity>), (status = 400, body = ApiError)), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn meter_activity(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let rows = reads::gateway_activity(&state.db, &query.slice(Some(("meter_id", &id)))?).await?;
    Ok(HttpResponse::Ok().json(rows))
}

/// The meters a gateway heard, with their RSSI.
#[utoipa::path(get, path = "/api/proxy/gateways/ble-activity/{id}", tag = "telemetry",
    params(("id" = String, Path, description = "The gateway's id"), ListQuery),
    responses((status = 200, body = Vec<Ble>), (status = 400, body = ApiError)), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn gateway_ble(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let rows = reads::ble_activity(&state.db, &query.slice(Some(("gateway_id", &id)))?).await?;
    Ok(HttpResponse::Ok().json(rows))
}

/// The gateways that heard a meter, with their RSSI.
#[utoipa::path(get, path = "/api/proxy/wmeters/ble-activity/{id}", tag = "telemetry",
    params(("id" = String, Path, description = "The meter's id"), ListQuery),
    responses((status = 200, body = Vec<Ble>), (status = 400, body = ApiError)), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn meter_ble(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let rows = reads::ble_activity(&state.db, &query.slice(Some(("meter_id", &id)))?).await?;
    Ok(HttpResponse::Ok().json(rows))
}

/// The BLE peripherals a gateway discovered.
/// They name no meter, so of the list filters only `max` and `start` apply.
#[utoipa::path(get, path = "/api/proxy/gateways/peripheral-discovery/{id}", tag = "telemetry",
    params(
        ("id" = String, Path, description = "The gateway's id"),
        ("max" = Option<i64>, Query, minimum = 1, maximum = 500, description = "Rows per page, 1 to 500 (default 20)"),
        ("start" = Option<String>, Query, format = DateTime, description = "Only rows older than this"),
    ),
    responses((status = 200, body = Vec<Discovery>), (status = 400, body = ApiError)), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn discoveries(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let rows = reads::discoveries(&state.db, &query.discoveries_of(&id)?).await?;
    Ok(HttpResponse::Ok().json(rows))
}

/// A meter's consumption records, in litres.
#[utoipa::path(get, path = "/api/proxy/wmeters/consumption/{id}", tag = "telemetry",
    params(("id" = String, Path, description = "The meter's id"), ListQuery),
    responses((status = 200, body = Vec<Consumption>), (status = 400, body = ApiError)), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn consumption(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let rows = reads::consumption(&state.db, &query.slice(Some(("meter_id", &id)))?).await?;
    Ok(HttpResponse::Ok().json(rows))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AlertQuery {
    /// `true`: only the alerts still raised.
    #[param(value_type = Option<bool>)]
    only_raised: Option<String>,
}

/// A meter's critical alerts, raised first.
#[utoipa::path(get, path = "/api/proxy/wmeters/critical/{id}", tag = "telemetry",
    params(("id" = String, Path, description = "The meter's id"), AlertQuery),
    responses((status = 200, body = Vec<CriticalAlert>), (status = 400, body = ApiError)), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn alerts(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
    query: web::Query<AlertQuery>,
) -> Result<HttpResponse, ApiError> {
    let only_raised = match query.only_raised.as_deref() {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => {
            return Err(IngestError::BadRequest(format!("onlyRaised must be true or false, not {other:?}")).into());
        }
    };
    let rows = reads::alerts(&state.db, &id_of(&id)?, only_raised).await?;
    Ok(HttpResponse::Ok().json(rows))
}
