//! Registering, editing and deleting devices: operators and admins only.

use actix_web::{HttpResponse, http::StatusCode, web};
use serde::Serialize;
use wm_domain::DeviceKind;
use wm_http::{ApiError, auth::Caller};

use super::{
    bodies::{PatchGateway, PatchMeter, RegisterGateway, RegisterMeter},
    params::device_id,
};
use crate::{
    domain::{gateway, meter},
    json::Show,
    state::RegistryState,
    storage::{
        lists,
        rows::{GatewayRow, MeterRow},
    },
};

#[derive(Serialize)]
struct Created {
    #[serde(rename = "_id")]
    id: String,
}

/// `POST /api/proxy/gateways/` → 201 `{"_id"}`.
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn register_gateway(
    caller: Caller,
    state: web::Data<RegistryState>,
    body: web::Json<RegisterGateway>,
) -> Result<HttpResponse, ApiError> {
    caller.may_change_devices()?;
    let id = state.commands.register_gateway(&caller.user_id, body.into_inner().validate()?).await?;
    Ok(HttpResponse::Created().json(Created { id: id.to_string() }))
}

/// `POST /api/proxy/wmeters/` → 201 `{"_id"}`.
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn register_meter(
    caller: Caller,
    state: web::Data<RegistryState>,
    body: web::Json<RegisterMeter>,
) -> Result<HttpResponse, ApiError> {
    caller.may_change_devices()?;
    let id = state.commands.register_meter(&caller.user_id, body.into_inner().validate()?).await?;
    Ok(HttpResponse::Created().json(Created { id: id.to_string() }))
}

/// `PATCH /api/proxy/gateways/{id}` with `phoneNumber` and/or
/// `gpsCoordinates` → the gateway as it now is.
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn patch_gateway(
    caller: Caller,
    state: web::Data<RegistryState>,
    id: web::Path<String>,
    body: web::Json<PatchGateway>,
) -> Result<HttpResponse, ApiError> {
    caller.may_change_devices()?;
    let id = device_id(&id)?;
    let changes = body.into_inner().validate()?;
    state.commands.change_gateway(&caller.user_id, id, gateway::Command::Update(changes)).await?;
    current::<GatewayRow>(&state, &id.to_string()).await
}

/// `PATCH /api/proxy/wmeters/{id}` with `gpsCoordinates` → the meter as it
/// now is.
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn patch_meter(
    caller: Caller,
    state: web::Data<RegistryState>,
    id: web::Path<String>,
    body: web::Json<PatchMeter>,
) -> Result<HttpResponse, ApiError> {
    caller.may_change_devices()?;
    let id = device_id(&id)?;
    let gps = body.into_inner().validate()?;
    state.commands.change_meter(&caller.user_id, id, meter::Command::Update { gps }).await?;
    current::<MeterRow>(&state, &id.to_string()).await
}

/// `DELETE /api/proxy/{gateways|wmeters}/{id}` → 204; 409 `device_seen`
/// once the device was heard from.
#[tracing::instrument(skip_all, fields(user = caller.user_id, ?kind))]
pub async fn delete(
    kind: DeviceKind,
    caller: Caller,
    state: web::Data<RegistryState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    caller.may_change_devices()?;
    let id = device_id(&id)?;
    match kind {
        DeviceKind::Gateway => state.commands.change_gateway(&caller.user_id, id, gateway::Command::Delete).await?,
        DeviceKind::Meter => state.commands.change_meter(&caller.user_id, id, meter::Command::Delete).await?,
    }
    Ok(HttpResponse::new(StatusCode::NO_CONTENT))
}

async fn current<T: lists::Table + Show>(state: &RegistryState, id: &str) -> Result<HttpResponse, ApiError> {
    let row = lists::by_id::<T>(state.db(), id).await?.ok_or(crate::error::RegistryError::NotFound("device"))?;
    Ok(HttpResponse::Ok().json(row.show(state.now(), &state.settings)))
}
