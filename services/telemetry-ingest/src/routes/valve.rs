//! Valve commands followed to the end: a meter's command timeline, and an
//! operator's resend of a failed or timed-out command.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use wm_http::{ApiError, auth::Caller};

use super::params::id_of;
use crate::{
    actions,
    error::IngestError,
    state::IngestState,
    storage::valve_commands::{self, Timeline},
};

const DEFAULT_MAX: i64 = 20;
const MAX_MAX: i64 = 100;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TimelineQuery {
    /// The meter's id.
    #[param(pattern = "^[0-9a-fA-F]{24}$")]
    meter: String,
    /// Commands, newest first, 1 to 100 (default 20).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100)]
    max: Option<String>,
}

/// A meter's valve commands, newest first, with the time of each step.
#[utoipa::path(get, path = "/api/valve-commands", tag = "valve commands", params(TimelineQuery),
    responses((status = 200, body = Vec<Timeline>), (status = 400, body = ApiError)), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn timeline(
    caller: Caller,
    state: web::Data<IngestState>,
    query: web::Query<TimelineQuery>,
) -> Result<HttpResponse, ApiError> {
    let meter = id_of(&query.meter).map_err(|e| IngestError::Invalid { field: "meter", message: e.to_string() })?;
    let max = wm_http::params::max(query.max.as_deref(), DEFAULT_MAX, MAX_MAX)
        .map_err(|message| IngestError::Invalid { field: "max", message })?;
    Ok(HttpResponse::Ok().json(valve_commands::timeline(&state.db, &meter, max).await?))
}

/// The command a resend issued.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Resent {
    command_id: String,
}

/// Send a failed or timed-out command again, through the gateway that last heard the meter.
#[utoipa::path(post, path = "/api/valve-commands/{id}/resend", tag = "valve commands",
    params(("id" = String, Path, description = "The command's id")),
    responses(
        (status = 200, body = Resent),
        (status = 403, description = "A viewer may not resend", body = ApiError),
        (status = 404, body = ApiError),
        (status = 409, description = "`not_resendable`: the command is not failed or timed out; `no_gateway`: no gateway can carry it", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn resend(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let attempt = IngestState::attempt(&caller, "valve.resend").on(&id);
    let result = async {
        caller.may_change_devices()?;
        let command_id = actions::valve::resend(&state, &attempt, &caller.user_id, &id).await?;
        Ok(HttpResponse::Ok().json(Resent { command_id }))
    };
    state.audited(&attempt, result.await).await
}
