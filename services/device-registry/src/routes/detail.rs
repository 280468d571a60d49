//! One device, by id or by serial number.

use actix_web::{HttpResponse, web};
use wm_domain::{DeviceKind, SerialNumber};
use wm_http::{ApiError, auth::Caller};

use super::params::device_id;
use crate::{
    error::RegistryError,
    json::{GatewayJson, MeterJson, Show},
    state::RegistryState,
    storage::{
        lists::{self, Table},
        rows::{GatewayRow, MeterRow},
    },
};

async fn by_id<T: Table + Show>(state: &RegistryState, id: &str) -> Result<HttpResponse, ApiError> {
    let id = device_id(id)?;
    shown(state, lists::by_id::<T>(state.db(), &id.to_string()).await?)
}

/// The serial with or without the kind's prefix, in any case.
async fn by_serial<T: Table + Show>(
    state: &RegistryState,
    kind: DeviceKind,
    serial: &str,
) -> Result<HttpResponse, ApiError> {
    let serial = SerialNumber::parse_with_prefix(serial, kind)
        .map_err(|_| RegistryError::BadRequest(format!("{serial:?} is not a serial number of 10 letters or digits")))?;
    shown(state, lists::by_serial::<T>(state.db(), serial.as_str()).await?)
}

pub(super) fn shown<T: Show>(state: &RegistryState, row: Option<T>) -> Result<HttpResponse, ApiError> {
    let row = row.ok_or(RegistryError::NotFound("device"))?;
    Ok(HttpResponse::Ok().json(row.show(state.now(), &state.settings)))
}

/// One gateway by its id.
#[utoipa::path(get, path = "/api/proxy/gateways/{id}", tag = "gateways",
    params(("id" = String, Path, description = "24 hexadecimal characters", example = "6740a1b2c3d4e5f601234567")),
    responses(
        (status = 200, description = "The gateway", body = GatewayJson),
        (status = 400, description = "The id is malformed", body = ApiError),
        (status = 404, description = "No such gateway", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn gateway(
    caller: Caller,
    state: web::Data<RegistryState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    by_id::<GatewayRow>(&state, &id).await
}

/// One gateway by its serial number, with or without `GTW-`.
#[utoipa::path(get, path = "/api/proxy/gateways/serial/{serial}", tag = "gateways",
    params(("serial" = String, Path, example = "GTW-AB12CD34EF")),
    responses(
        (status = 200, description = "The gateway", body = GatewayJson),
        (status = 400, description = "Not a serial number", body = ApiError),
        (status = 404, description = "No such gateway", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn gateway_by_serial(
    caller: Caller,
    state: web::Data<RegistryState>,
    serial: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    by_serial::<GatewayRow>(&state, DeviceKind::Gateway, &serial).await
}

/// One water meter by its id.
#[utoipa::path(get, path = "/api/proxy/wmeters/{id}", tag = "water meters",
    params(("id" = String, Path, description = "24 hexadecimal characters", example = "6740a1b2c3d4e5f6abcdef01")),
    responses(
        (status = 200, description = "The meter", body = MeterJson),
        (status = 400, description = "The id is malformed", body = ApiError),
        (status = 404, description = "No such meter", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn meter(
    caller: Caller,
    state: web::Data<RegistryState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    by_id::<MeterRow>(&state, &id).await
}

/// One water meter by its serial number, with or without `W-`.
#[utoipa::path(get, path = "/api/proxy/wmeters/serial/{serial}", tag = "water meters",
    params(("serial" = String, Path, example = "W-ZX98YW76VU")),
    responses(
        (status = 200, description = "The meter", body = MeterJson),
        (status = 400, description = "Not a serial number", body = ApiError),
        (status = 404, description = "No such meter", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn meter_by_serial(
    caller: Caller,
    state: web::Data<RegistryState>,
    serial: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    by_serial::<MeterRow>(&state, DeviceKind::Meter, &serial).await
}
