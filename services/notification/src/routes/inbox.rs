//! A user's own notifications: list, dismiss one device's, clear all.

use actix_web::{HttpResponse, http::StatusCode, web};
use wm_http::{ApiError, auth::Caller};
use wm_proto::{
    Envelope, Payload,
    v1::{NotificationDismissed, NotificationsCleared},
};

use crate::{
    state::{NotificationState, stage},
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
pub async fn list(
    caller: Caller,
    state: web::Data<NotificationState>,
    user_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    if *user_id != caller.user_id {
        return Err(ApiError::forbidden("You can read only your own notifications"));
    }
    let rows = inbox::newest(&state.db, &caller.user_id, LIST_MAX).await.map_err(|e| ApiError::storage(&e))?;
    Ok(HttpResponse::Ok().json(rows))
}

/// Removes the caller's notifications about one device.
#[utoipa::path(delete, path = "/api/notifications/{deviceName}", tag = "notifications",
    params(("deviceName" = String, Path, example = "W-AB12CD34EF")),
    responses((status = 204, description = "Removed (or there were none)")), security(("bearer" = [])))]
pub async fn dismiss(
    caller: Caller,
    state: web::Data<NotificationState>,
    device: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let dismissed = NotificationDismissed { user_id: caller.user_id.clone(), device_name: device.into_inner() };
    change(&state, &caller, Payload::NotificationDismissed(dismissed)).await
}

/// Removes all of the caller's notifications.
#[utoipa::path(delete, path = "/api/notifications/user", tag = "notifications",
    responses((status = 204, description = "Cleared")), security(("bearer" = [])))]
pub async fn clear(caller: Caller, state: web::Data<NotificationState>) -> Result<HttpResponse, ApiError> {
    let cleared = NotificationsCleared { user_id: caller.user_id.clone() };
    change(&state, &caller, Payload::NotificationsCleared(cleared)).await
}

/// Applies a dismissal or clearing and records it, in one transaction.
async fn change(state: &NotificationState, caller: &Caller, payload: Payload) -> Result<HttpResponse, ApiError> {
    let envelope = Envelope::new(&caller.user_id, &caller.user_id, payload).with_occurred_at(state.clock.now());
    let mut tx = state.db.begin_write().await.map_err(|e| ApiError::storage(&e))?;
    crate::rules::persist(&mut tx, &envelope).await.map_err(|e| ApiError::storage(&e))?;
    stage(&mut tx, std::slice::from_ref(&envelope)).await.map_err(|e| ApiError::storage(&e))?;
    tx.commit().await.map_err(|e| ApiError::storage(&e))?;
    state.relay.wake();
    Ok(HttpResponse::new(StatusCode::NO_CONTENT))
}
