use actix_web::{HttpRequest, HttpResponse, web};
use chrono::Utc;
use wm_http::ApiError;
use wm_proto::{Payload, v1::UserLoggedOut};

use crate::{AuthState, audit, storage::sessions};

/// `POST /api/auth/logout`: revokes the cookie's whole family and clears the
/// cookie. Answers 204 even without a session, so logging out never fails.
#[utoipa::path(post, path = "/api/auth/logout", tag = "auth",
    responses((status = 204, description = "Signed out; clears the refresh cookie")))]
#[tracing::instrument(skip_all)]
pub async fn post(req: HttpRequest, state: web::Data<AuthState>) -> Result<HttpResponse, ApiError> {
    let Some(cookie) = req.cookie(state.cookie.name()) else {
        return Ok(signed_out(&state));
    };
    let ended = sessions::end(&state.db, cookie.value(), Utc::now()).await?;
    if let Some(family) = ended {
        let event = UserLoggedOut { user_id: family.user_id.clone(), source_ip: audit::source_ip(&req) };
        state.audit.record(&family.user_id, &family.user_id, Payload::UserLoggedOut(event)).await;
    }
    Ok(signed_out(&state))
}

fn signed_out(state: &AuthState) -> HttpResponse {
    HttpResponse::NoContent().cookie(state.cookie.cleared()).finish()
}
