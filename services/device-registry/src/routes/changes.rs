//! Registering, editing and deleting devices: operators and admins only.

use actix_web::{HttpResponse, http::StatusCode, web};
use serde::Serialize;
use utoipa::ToSchema;
use wm_http::{ApiError, JsonObject, auth::Caller};

use super::{
    bodies::{PatchGateway, PatchMeter, RegisterGateway, RegisterMeter},
    detail::shown,
    params::device_id,
};
use crate::{
    domain::{gateway, meter},
    json::{GatewayJson, MeterJson},
    state::RegistryState,
    storage::{
        lists,
        rows::{GatewayRow, MeterRow},
    },
};

/// The id of a new device.
#[derive(Serialize, ToSchema)]
pub struct Created {
    #[serde(rename = "_id")]
    #[schema(example = "6740a1b2c3d4e5f601234567")]
    id: String,
}

/// Register a gateway.
#[utoipa::path(post, path = "/api/proxy/gateways/", tag = "gateways", request_body = RegisterGateway,
    responses(
        (status = 201, description = "Registered", body = Created),
        (status = 400, description = "Fields break the rules; `fields` has the spec's message for each", body = ApiError),
        (status = 403, description = "A viewer may not register devices", body = ApiError),
        (status = 409, description = "Identifiers already in use, per field", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn register_gateway(
    caller: Caller,
    state: web::Data<RegistryState>,
    body: JsonObject<RegisterGateway>,
) -> Result<HttpResponse, ApiError> {
    let attempt = RegistryState::attempt(&caller, "gateway.register");
    let result = async {
        caller.may_change_devices()?;
        let id = state.actions.register_gateway(&attempt, body.into_inner().validate()?).await?;
        Ok(HttpResponse::Created().json(Created { id: id.to_string() }))
    };
    state.audited(&attempt, result.await).await
}

/// Register a water meter.
#[utoipa::path(post, path = "/api/proxy/wmeters/", tag = "water meters", request_body = RegisterMeter,
    responses(
        (status = 201, description = "Registered", body = Created),
        (status = 400, description = "Fields break the rules; `fields` has the spec's message for each", body = ApiError),
        (status = 403, description = "A viewer may not register devices", body = ApiError),
        (status = 409, description = "Identifiers already in use, per field", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn register_meter(
    caller: Caller,
    state: web::Data<RegistryState>,
    body: JsonObject<RegisterMeter>,
) -> Result<HttpResponse, ApiError> {
    let attempt = RegistryState::attempt(&caller, "meter.register");
    let result = async {
        caller.may_change_devices()?;
        let id = state.actions.register_meter(&attempt, body.into_inner().validate()?).await?;
        Ok(HttpResponse::Created().json(Created { id: id.to_string() }))
    };
    state.audited(&attempt, result.await).await
}

/// Change a gateway's phone number and/or position.
#[utoipa::path(patch, path = "/api/proxy/gateways/{id}", tag = "gateways", request_body = PatchGateway,
    params(("id" = String, Path, description = "24 hexadecimal characters")),
    responses(
        (status = 200, description = "The gateway as it now is", body = GatewayJson),
        (status = 400, description = "A field breaks the rules", body = ApiError),
        (status = 403, description = "A viewer may not edit devices", body = ApiError),
        (status = 404, description = "No such gateway", body = ApiError),
        (status = 409, description = "The phone number is in use", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn patch_gateway(
    caller: Caller,
    state: web::Data<RegistryState>,
    id: web::Path<String>,
    body: JsonObject<PatchGateway>,
) -> Result<HttpResponse, ApiError> {
    let attempt = RegistryState::attempt(&caller, "gateway.edit").on(&id);
    let result = async {
        caller.may_change_devices()?;
        let id = device_id(&id)?;
        let changes = body.into_inner().validate()?;
        state.actions.change_gateway(&attempt, id, gateway::Command::Update(changes)).await?;
        Ok(id)
    };
    let id = state.audited(&attempt, result.await).await?;
    shown(&state, lists::by_id::<GatewayRow>(state.db(), &id.to_string()).await?)
}

/// Move a water meter.
#[utoipa::path(patch, path = "/api/proxy/wmeters/{id}", tag = "water meters", request_body = PatchMeter,
    params(("id" = String, Path, description = "24 hexadecimal characters")),
    responses(
        (status = 200, description = "The meter as it now is", body = MeterJson),
        (status = 400, description = "A field breaks the rules", body = ApiError),
        (status = 403, description = "A viewer may not edit devices", body = ApiError),
        (status = 404, description = "No such meter", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn patch_meter(
    caller: Caller,
    state: web::Data<RegistryState>,
    id: web::Path<String>,
    body: JsonObject<PatchMeter>,
) -> Result<HttpResponse, ApiError> {
    let attempt = RegistryState::attempt(&caller, "meter.edit").on(&id);
    let result = async {
        caller.may_change_devices()?;
        let id = device_id(&id)?;
        let gps = body.into_inner().validate()?;
        state.actions.change_meter(&attempt, id, meter::Command::Update { gps }).await?;
        Ok(id)
    };
    let id = state.audited(&attempt, result.await).await?;
    shown(&state, lists::by_id::<MeterRow>(state.db(), &id.to_string()).await?)
}

/// Delete a gateway that was never seen.
#[utoipa::path(delete, path = "/api/proxy/gateways/{id}", tag = "gateways",
    params(("id" = String, Path, description = "24 hexadecimal characters")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 403, description = "A viewer may not delete devices", body = ApiError),
        (status = 404, description = "No such gateway", body = ApiError),
        (status = 409, description = "`device_seen`: it has been heard from", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn delete_gateway(
    caller: Caller,
    state: web::Data<RegistryState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let attempt = RegistryState::attempt(&caller, "gateway.delete").on(&id);
    let result = async {
        caller.may_change_devices()?;
        state.actions.change_gateway(&attempt, device_id(&id)?, gateway::Command::Delete).await?;
        Ok(HttpResponse::new(StatusCode::NO_CONTENT))
    };
    state.audited(&attempt, result.await).await
}

/// Delete a water meter that was never seen.
#[utoipa::path(delete, path = "/api/proxy/wmeters/{id}", tag = "water meters",
    params(("id" = String, Path, description = "24 hexadecimal characters")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 403, description = "A viewer may not delete devices", body = ApiError),
        (status = 404, description = "No such meter", body = ApiError),
        (status = 409, description = "`device_seen`: it has been heard from", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn delete_meter(
    caller: Caller,
    state: web::Data<RegistryState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let attempt = RegistryState::attempt(&caller, "meter.delete").on(&id);
    let result = async {
        caller.may_change_devices()?;
        state.actions.change_meter(&attempt, device_id(&id)?, meter::Command::Delete).await?;
        Ok(HttpResponse::new(StatusCode::NO_CONTENT))
    };
    state.audited(&attempt, result.await).await
}
