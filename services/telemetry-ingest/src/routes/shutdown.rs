//! A meter's shutdown request: its status, and the operator's answer.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use wm_http::{ApiError, JsonObject, auth::Caller};

use super::params::id_of;
use crate::{actions, domain::shutdown::Answer, error::IngestError, state::IngestState, storage::shutdowns};

/// `{"status": "requested" | "confirmed" | "rejected" | null}`; a
/// confirmation also names the valve command it issued.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShutdownStatus {
    #[schema(example = "requested")]
    status: Option<&'static str>,
    /// The valve command a confirmation issued (follow it with
    /// `/api/valve-commands?meter=`).
    #[serde(skip_serializing_if = "Option::is_none")]
    valve_command_id: Option<String>,
}

/// The operator's answer to a pending request.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnswerBody {
    /// `confirmed` closes the meter's valve; `rejected` leaves it open.
    #[schema(pattern = "^(confirmed|rejected)$", example = "confirmed")]
    status: String,
}

/// The status of the meter's latest shutdown request, or null.
#[utoipa::path(get, path = "/api/proxy/wmeters/shutdown-requests/{id}", tag = "shutdown",
    params(("id" = String, Path, description = "The meter's id")),
    responses((status = 200, body = ShutdownStatus), (status = 400, body = ApiError)), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn get(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let latest = shutdowns::latest(&state.db, &id_of(&id)?).await?;
    Ok(HttpResponse::Ok().json(ShutdownStatus { status: latest.map(|r| r.status.as_str()), valve_command_id: None }))
}

/// Confirm or reject the meter's pending shutdown request.
#[utoipa::path(patch, path = "/api/proxy/wmeters/shutdown-requests/{id}", tag = "shutdown", request_body = AnswerBody,
    params(("id" = String, Path, description = "The meter's id")),
    responses(
        (status = 200, description = "Answered", body = ShutdownStatus),
        (status = 400, description = "status is not confirmed or rejected", body = ApiError),
        (status = 403, description = "A viewer may not answer", body = ApiError),
        (status = 404, description = "The meter has no shutdown request", body = ApiError),
        (status = 409, description = "`not_pending`: the request was already answered; `no_gateway`: a confirmation no gateway can carry out (nothing was saved)", body = ApiError),
        (status = 503, description = "`audit_unavailable`: the answer could not be audited, so nothing was done", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn patch(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
    body: JsonObject<AnswerBody>,
) -> Result<HttpResponse, ApiError> {
    let answer = Answer::parse(&body.status);
    let attempt = IngestState::attempt(&caller, answer.map_or("shutdown.answer", Answer::action)).on(&id);
    let result = async {
        caller.may_change_devices()?;
        let meter_id = id_of(&id)?;
        let answer = answer.ok_or_else(|| {
            IngestError::BadRequest(format!("status must be confirmed or rejected, not {:?}", body.status))
        })?;
        let (status, valve_command_id) =
            actions::answer_shutdown(&state, &attempt, &caller.user_id, &meter_id, answer).await?;
        Ok(HttpResponse::Ok().json(ShutdownStatus { status: Some(status.as_str()), valve_command_id }))
    };
    state.audited(&attempt, result.await).await
}
