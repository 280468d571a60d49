//! Alarms (docs/alarms.md): the list, the counts, one alarm with its
//! history, the users it can be assigned to, and the operators' actions.
//! Viewers read; operators and admins act; every action is audited.

use actix_web::{HttpResponse, web};
use serde::Deserialize;
use utoipa::ToSchema;
use wm_http::{ApiError, JsonObject, auth::Caller};

use super::alarm_params::{AlarmQuery, CountQuery, PageQuery};
use crate::{
    actions::alarms::{self, Acknowledged},
    domain::alarm::{AlarmError, Command},
    error::IngestError,
    state::IngestState,
    storage::alarm_views::{self, AlarmCounts, AlarmDetail, AlarmPage, Assignable},
};

/// The most alarms one bulk acknowledgement takes.
const MAX_BULK: usize = 500;

/// A page of alarms, newest first unless sorted otherwise; page on with `after`.
#[utoipa::path(get, path = "/api/alarms", tag = "alarms", params(AlarmQuery, PageQuery),
    responses((status = 200, body = AlarmPage), (status = 400, description = "A bad filter, named in `fields`", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn list(
    caller: Caller,
    state: web::Data<IngestState>,
    filter: web::Query<AlarmQuery>,
    page: web::Query<PageQuery>,
) -> Result<HttpResponse, ApiError> {
    let (filter, page) = (filter.filter()?, page.page()?);
    Ok(HttpResponse::Ok().json(alarm_views::list(&state.db, &filter, &page).await?))
}

/// How many alarms are in each status, in the network or on one `device`.
#[utoipa::path(get, path = "/api/alarms/counts", tag = "alarms", params(CountQuery),
    responses((status = 200, body = AlarmCounts), (status = 400, body = ApiError)), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn counts(
    caller: Caller,
    state: web::Data<IngestState>,
    query: web::Query<CountQuery>,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(alarm_views::counts(&state.db, query.device()?.as_deref()).await?))
}

/// The active admins and operators an alarm can be assigned to.
#[utoipa::path(get, path = "/api/alarms/assignees", tag = "alarms",
    responses((status = 200, body = Vec<Assignable>)), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn assignees(caller: Caller, state: web::Data<IngestState>) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(alarm_views::assignable(&state.db).await?))
}

/// One alarm with its history, oldest step first.
#[utoipa::path(get, path = "/api/alarms/{id}", tag = "alarms", params(("id" = String, Path, description = "The alarm's id")),
    responses((status = 200, body = AlarmDetail), (status = 404, body = ApiError)), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn get(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let alarm = alarm_views::get(&state.db, &id).await?.ok_or(IngestError::Alarm(AlarmError::NotFound))?;
    Ok(HttpResponse::Ok().json(alarm))
}

/// A note on an action (optional) or a comment's text.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NoteBody {
    /// At most 2000 characters.
    #[serde(default)]
    note: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CommentBody {
    /// 1 to 2000 characters.
    text: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AssignBody {
    /// The user's id (an active admin or operator), or null (or empty) to
    /// unassign.
    assignee: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BulkBody {
    /// The alarms to acknowledge, 1 to 500.
    #[schema(min_items = 1, max_items = 500)]
    ids: Vec<String>,
    #[serde(default)]
    note: String,
}

/// Runs `command` on the alarm for an operator or admin, audited as
/// `action`; answers the alarm as it is now.
async fn act(
    caller: &Caller,
    state: &IngestState,
    id: &str,
    action: &'static str,
    command: Command,
) -> Result<HttpResponse, ApiError> {
    let attempt = IngestState::attempt(caller, action).on(id);
    let result = async {
        caller.may_change_devices()?;
        alarms::act(state, &attempt, &caller.user_id, id, command).await?;
        let alarm = alarm_views::get(&state.db, id).await?.ok_or(IngestError::Alarm(AlarmError::NotFound))?;
        Ok(HttpResponse::Ok().json(alarm))
    };
    state.audited(&attempt, result.await).await
}

/// Acknowledge an active alarm, with an optional note.
#[utoipa::path(post, path = "/api/alarms/{id}/acknowledge", tag = "alarms", request_body = NoteBody,
    params(("id" = String, Path, description = "The alarm's id")),
    responses((status = 200, body = AlarmDetail), (status = 400, body = ApiError), (status = 403, body = ApiError),
        (status = 404, body = ApiError), (status = 409, description = "`alarm_not_active`", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn acknowledge(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
    body: JsonObject<NoteBody>,
) -> Result<HttpResponse, ApiError> {
    act(&caller, &state, &id, "alarm.acknowledge", Command::Acknowledge { note: body.into_inner().note }).await
}

/// Assign the alarm to an admin or operator, or unassign it.
#[utoipa::path(post, path = "/api/alarms/{id}/assign", tag = "alarms", request_body = AssignBody,
    params(("id" = String, Path, description = "The alarm's id")),
    responses((status = 200, body = AlarmDetail), (status = 400, body = ApiError), (status = 403, body = ApiError),
        (status = 404, body = ApiError),
        (status = 409, description = "`alarm_closed`; `not_assignable`: the assignee is no active admin or operator", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn assign(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
    body: JsonObject<AssignBody>,
) -> Result<HttpResponse, ApiError> {
    let assignee = body.into_inner().assignee.filter(|user| !user.trim().is_empty());
    act(&caller, &state, &id, "alarm.assign", Command::Assign { assignee }).await
}

/// Comment on the alarm, in any status.
#[utoipa::path(post, path = "/api/alarms/{id}/comment", tag = "alarms", request_body = CommentBody,
    params(("id" = String, Path, description = "The alarm's id")),
    responses((status = 200, body = AlarmDetail), (status = 400, body = ApiError), (status = 403, body = ApiError),
        (status = 404, body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn comment(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
    body: JsonObject<CommentBody>,
) -> Result<HttpResponse, ApiError> {
    act(&caller, &state, &id, "alarm.comment", Command::Comment { text: body.into_inner().text }).await
}

/// Clear an active or acknowledged alarm.
#[utoipa::path(post, path = "/api/alarms/{id}/clear", tag = "alarms", request_body = NoteBody,
    params(("id" = String, Path, description = "The alarm's id")),
    responses((status = 200, body = AlarmDetail), (status = 400, body = ApiError), (status = 403, body = ApiError),
        (status = 404, body = ApiError), (status = 409, description = "`alarm_not_open`", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn clear(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
    body: JsonObject<NoteBody>,
) -> Result<HttpResponse, ApiError> {
    act(&caller, &state, &id, "alarm.clear", Command::Clear { note: body.into_inner().note }).await
}

/// Close a cleared alarm.
#[utoipa::path(post, path = "/api/alarms/{id}/close", tag = "alarms", request_body = NoteBody,
    params(("id" = String, Path, description = "The alarm's id")),
    responses((status = 200, body = AlarmDetail), (status = 400, body = ApiError), (status = 403, body = ApiError),
        (status = 404, body = ApiError), (status = 409, description = "`alarm_not_cleared` or `alarm_closed`", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn close(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
    body: JsonObject<NoteBody>,
) -> Result<HttpResponse, ApiError> {
    act(&caller, &state, &id, "alarm.close", Command::Close { note: body.into_inner().note }).await
}

/// Acknowledge many alarms; those that cannot be are reported, not failed.
#[utoipa::path(post, path = "/api/alarms/acknowledge", tag = "alarms", request_body = BulkBody,
    responses((status = 200, body = Acknowledged), (status = 400, body = ApiError), (status = 403, body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn acknowledge_all(
    caller: Caller,
    state: web::Data<IngestState>,
    body: JsonObject<BulkBody>,
) -> Result<HttpResponse, ApiError> {
    let attempt = IngestState::attempt(&caller, "alarm.acknowledge");
    let result = async {
        caller.may_change_devices()?;
        let BulkBody { ids, note } = body.into_inner();
        if ids.is_empty() || ids.len() > MAX_BULK {
            let message = format!("ids must hold 1 to {MAX_BULK} alarm ids");
            return Err(IngestError::Invalid { field: "ids", message }.into());
        }
        let outcome = alarms::acknowledge_all(&state, &attempt, &caller.user_id, &ids, &note).await?;
        Ok(HttpResponse::Ok().json(outcome))
    };
    state.audited(&attempt, result.await).await
}
