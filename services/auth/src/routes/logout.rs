use actix_web::{HttpRequest, HttpResponse, web};
use chrono::Utc;
use wm_http::ApiError;

use super::storage_failure;
use crate::{AuthState, storage::sessions};

/// `POST /api/auth/logout`: revokes the cookie's whole family and clears the
/// cookie. Answers 204 even without a session, so logging out never fails.
pub async fn post(req: HttpRequest, state: web::Data<AuthState>) -> Result<HttpResponse, ApiError> {
    if let Some(cookie) = req.cookie(state.cookie.name()) {
        sessions::end(&state.db, cookie.value(), Utc::now()).await.map_err(|e| storage_failure(&e))?;
    }
    Ok(HttpResponse::NoContent().cookie(state.cookie.cleared()).finish())
}
