use actix_web::{HttpRequest, HttpResponse, web};
use chrono::Utc;
use serde::Serialize;
use utoipa::ToSchema;
use wm_http::{ApiError, auth::AccessTokens};
use wm_proto::{Payload, v1::RefreshTokenReused};

use crate::{
    AuthState, audit,
    error::AuthError,
    storage::{
        sessions::{self, Rejection},
        users,
    },
};

/// A header a cross-site form cannot send: its absence refuses the refresh.
pub const CSRF_HEADER: &str = "x-wmeter-refresh";

/// A new access token; the rotated refresh token travels in the cookie.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Refreshed {
    access_token: String,
}

/// `POST /api/auth/refresh`, with the refresh cookie and the
/// `X-WMeter-Refresh` header → `{accessToken}` and a rotated cookie.
#[utoipa::path(post, path = "/api/auth/refresh", tag = "auth",
    params(("X-WMeter-Refresh" = String, Header, description = "Any value; a cross-site form cannot send it")),
    responses(
        (status = 200, description = "A new access token; rotates the refresh cookie", body = Refreshed),
        (status = 401, description = "No, unknown, expired, revoked or reused refresh token", body = ApiError),
        (status = 403, description = "`csrf_header_required`", body = ApiError),
    ))]
#[tracing::instrument(skip_all)]
pub async fn post(
    req: HttpRequest,
    state: web::Data<AuthState>,
    tokens: web::Data<AccessTokens>,
) -> Result<HttpResponse, ApiError> {
    if !req.headers().contains_key(CSRF_HEADER) {
        return Err(AuthError::CsrfHeaderRequired.into());
    }
    let Some(cookie) = req.cookie(state.cookie.name()) else {
        return Err(AuthError::InvalidCredentials.into());
    };
    let rotated = sessions::rotate(&state.db, cookie.value(), state.policy, Utc::now()).await?;
    let next = match rotated {
        Ok(next) => next,
        Err(Rejection::Reused(family)) => {
            let source_ip = audit::source_ip(&req);
            let event = RefreshTokenReused { user_id: family.user_id.clone(), family_id: family.family_id, source_ip };
            state.audit.record(&family.user_id, &family.user_id, Payload::RefreshTokenReused(event)).await;
            return Ok(refused(&state));
        }
        Err(rejection) => {
            tracing::info!(?rejection, "refresh refused");
            return Ok(refused(&state));
        }
    };
    let user = users::find(&state.db, &next.user_id).await?;
    let Some(user) = user.filter(|u| !u.disabled) else {
        return Ok(refused(&state));
    };
    let access_token = tokens.issue(&super::login::subject(&user)).map_err(AuthError::from)?;
    Ok(HttpResponse::Ok().cookie(state.cookie.with(&next.token)).json(Refreshed { access_token }))
}

/// 401, and the browser forgets the dead token.
fn refused(state: &AuthState) -> HttpResponse {
    let mut response = actix_web::ResponseError::error_response(&ApiError::from(AuthError::InvalidCredentials));
    let _ = response.add_cookie(&state.cookie.cleared());
    response
}
