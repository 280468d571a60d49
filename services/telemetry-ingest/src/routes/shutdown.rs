//! A meter's shutdown request: its status, and the operator's answer.

use actix_web::{HttpResponse, http::StatusCode, web};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;
use wm_eventlog::{
    audit::{self, Attempt},
    outbox,
};
use wm_http::{ApiError, JsonObject, auth::Caller};
use wm_proto::{
    Envelope, Payload,
    v1::{ShutdownAnswerStatus, ShutdownAnswered},
};
use wm_storage::with_tx;

use super::params::id_of;
use crate::{
    NAME,
    ingest::{Ingest, valve},
    storage::{reads, telemetry},
};

/// `{"status": "requested" | "confirmed" | "rejected" | null}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShutdownStatus {
    #[schema(example = "requested")]
    status: Option<String>,
}

/// The operator's answer to a pending request.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    /// `confirmed` closes the meter's valve; `rejected` leaves it open.
    #[schema(pattern = "^(confirmed|rejected)$", example = "confirmed")]
    status: String,
}

/// The status of the meter's latest shutdown request, or null.
#[utoipa::path(get, path = "/api/proxy/wmeters/shutdown-requests/{id}", tag = "shutdown",
    params(("id" = String, Path, description = "The meter's id")),
    responses((status = 200, body = ShutdownStatus), (status = 400, body = ApiError)), security(("bearer" = [])))]
pub async fn get(_: Caller, state: web::Data<Ingest>, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let latest = reads::latest_shutdown(&state.db, &id_of(&id)?).await.map_err(|e| ApiError::storage(&e))?;
    Ok(HttpResponse::Ok().json(ShutdownStatus { status: latest.map(|(_, status)| status) }))
}

/// Confirm or reject the meter's pending shutdown request.
#[utoipa::path(patch, path = "/api/proxy/wmeters/shutdown-requests/{id}", tag = "shutdown", request_body = Answer,
    params(("id" = String, Path, description = "The meter's id")),
    responses(
        (status = 200, description = "Answered", body = ShutdownStatus),
        (status = 400, description = "status is not confirmed or rejected", body = ApiError),
        (status = 403, description = "A viewer may not answer", body = ApiError),
        (status = 404, description = "The meter has no shutdown request", body = ApiError),
        (status = 409, description = "`not_pending`: the request was already answered", body = ApiError),
        (status = 503, description = "`audit_unavailable`: the answer could not be audited, so nothing was done", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn patch(
    caller: Caller,
    state: web::Data<Ingest>,
    id: web::Path<String>,
    body: JsonObject<Answer>,
) -> Result<HttpResponse, ApiError> {
    let action = match body.status.as_str() {
        "confirmed" => "shutdown.confirm",
        "rejected" => "shutdown.reject",
        _ => "shutdown.answer",
    };
    let attempt = Attempt::new(&caller.user_id, caller.role.as_str(), caller.source_ip, action).on(&id);
    let result = answer(&caller, &state, &id, &body.status, &attempt).await;
    if let Err(e) = &result {
        let at = state.clock.now();
        audit::record_refusal(&state.db, &state.relay, NAME, &attempt, (e.code, &e.detail()), at).await;
    }
    result
}

/// Answers the meter's pending request with `status`, recording `attempt`
/// in the same transaction. **Fails closed:** when the audit record cannot
/// be staged, nothing is committed, so no valve command is sent.
async fn answer(
    caller: &Caller,
    state: &Ingest,
    id: &str,
    answered_with: &str,
    attempt: &Attempt,
) -> Result<HttpResponse, ApiError> {
    caller.may_change_devices()?;
    let meter_id = id_of(id)?;
    let status = match answered_with {
        "confirmed" => ShutdownAnswerStatus::Confirmed,
        "rejected" => ShutdownAnswerStatus::Rejected,
        other => return Err(ApiError::validation(format!("status must be confirmed or rejected, not {other:?}"))),
    };
    let mut tx = state.db.begin_write().await.map_err(|e| ApiError::storage(&e))?;
    let lock = if matches!(tx, wm_storage::Tx::Postgres(_)) { " FOR UPDATE" } else { "" };
    let sql = format!(
        "SELECT request_id, status FROM shutdown_requests WHERE meter_id = $1 \
         ORDER BY requested_at DESC, request_id DESC LIMIT 1{lock}"
    );
    let latest: Option<(String, String)> = with_tx!(&mut tx, conn =>
        sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(&meter_id).fetch_optional(&mut **conn).await)
    .map_err(|e| ApiError::storage(&e))?;
    let Some((request_id, current)) = latest else {
        return Err(ApiError::not_found("This meter has no shutdown request"));
    };
    if current != "requested" {
        return Err(ApiError::conflict("not_pending", format!("The shutdown request was already {current}")));
    }
    let now = state.clock.now();
    let answer = ShutdownAnswered {
        meter_id: meter_id.clone(),
        request_id: request_id.clone(),
        status: status.into(),
        answered_by: caller.user_id.clone(),
    };
    let answered = Envelope::new(&meter_id, &caller.user_id, Payload::ShutdownAnswered(answer)).with_occurred_at(now);
    telemetry::persist_all(&mut tx, std::slice::from_ref(&answered)).await.map_err(|e| ApiError::storage(&e))?;
    let mut envelopes = vec![answered];
    let mut command_id = None;
    if status == ShutdownAnswerStatus::Confirmed {
        let command = valve::close(&mut tx, &meter_id, &request_id, &caller.user_id, now)
            .await
            .map_err(|e| ApiError::storage(&e))?;
        if command.is_none() {
            tracing::warn!(meter = meter_id, "no gateway has heard this meter: no valve command to send");
        }
        command_id = command.as_ref().and_then(|c| match &c.payload {
            Some(Payload::ValveCommandIssued(issued)) => Some(issued.command_id.clone()),
            _ => None,
        });
        envelopes.extend(command);
    }
    outbox::stage(&mut tx, NAME, None, &envelopes).await.map_err(|e| ApiError::storage(&e))?;
    let before = json!({"requestId": request_id, "status": current});
    let after = json!({"requestId": request_id, "status": answered_with, "valveCommandId": command_id});
    let record = attempt.succeeded(Some(before.to_string()), Some(after.to_string()), now);
    audit::stage(&mut tx, NAME, &record).await.map_err(|e| {
        tracing::error!(error = ?e, meter = meter_id, "the answer's audit record cannot be written: nothing was done");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "audit_unavailable",
            "The audit record could not be written, so the answer was not saved and no valve command was sent",
        )
    })?;
    tx.commit().await.map_err(|e| ApiError::storage(&e))?;
    state.relay.wake();
    state.dispatch.notify_one();
    Ok(HttpResponse::Ok().json(ShutdownStatus { status: Some(answered_with.to_owned()) }))
}
