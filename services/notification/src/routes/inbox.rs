//! A user's own notifications: list, dismiss one device's, clear all.

use actix_web::{HttpResponse, http::StatusCode, web};
use wm_http::{ApiError, auth::Caller};

use crate::{
    actions,
    error::NotificationError,
    state::NotificationState,
    storage::inbox::{self, Notification},
};

/// Notifications listed at most, newest first.
const LIST_MAX: i64 = 200;

/// The caller's notifications, newest first; another user's id gets 403.
#[utoipa::path(get, path = "/api/notifications/{userId}", tag = "notifications",
    params(("userId" = String, Path, description = "The caller's own user id")),
    responses(
        (status = 200, body = Vec<Notification>),
        (status = 403, description = "Another user's notifications", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn list(
    caller: Caller,
    state: web::Data<NotificationState>,
    user_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    if *user_id != caller.user_id {
        return Err(NotificationError::NotYours.into());
    }
    let rows = inbox::newest(&state.db, &caller.user_id, LIST_MAX).await?;
    Ok(HttpResponse::Ok().json(rows))
}

/// Removes the caller's notifications about one device.
#[utoipa::path(delete, path = "/api/notifications/{deviceName}", tag = "notifications",
    params(("deviceName" = String, Path, example = "W-AB12CD34EF")),
    responses((status = 204, description = "Removed (or there were none)")), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn dismiss(
    caller: Caller,
    state: web::Data<NotificationState>,
    device: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    actions::dismiss(&state, &caller.user_id, device.into_inner()).await?;
    Ok(HttpResponse::new(StatusCode::NO_CONTENT))
}

/// Removes all of the caller's notifications.
#[utoipa::path(delete, path = "/api/notifications/user", tag = "notifications",
    responses((status = 204, description = "Cleared")), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn clear(caller: Caller, state: web::Data<NotificationState>) -> Result<HttpResponse, ApiError> {
    actions::clear(&state, &caller.user_id).await?;
    Ok(HttpResponse::new(StatusCode::NO_CONTENT))
}
