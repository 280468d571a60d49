use std::{
    future::{Ready, ready},
    net::IpAddr,
};

use actix_web::{
    FromRequest, HttpRequest,
    dev::Payload,
    http::{StatusCode, header::AUTHORIZATION},
    web,
};

use super::{AccessTokens, Refusal, Role, TokenError};
use crate::ApiError;

/// What a user who must change their password may still reach: who they
/// are, and the change itself.
pub const PASSWORD_CHANGE_ROUTES: &[&str] = &["/api/auth/me", "/api/auth/password"];

/// The authenticated user behind a request. Taking it as a handler argument
/// makes the route answer 401 (JSON) without a valid `Authorization: Bearer`
/// access token. The token never travels in the URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caller {
    pub user_id: String,
    pub role: Role,
    /// The client's address ([`crate::client_ip`]), for the audit trail.
    pub source_ip: Option<IpAddr>,
}

impl Caller {
    /// 403 `forbidden` unless the caller may register, edit or delete
    /// devices or answer shutdown requests.
    pub fn may_change_devices(&self) -> Result<(), ApiError> {
        if self.role.may_change_devices() { Ok(()) } else { Err(denied()) }
    }

    /// 403 `forbidden` unless the caller may manage users.
    pub fn may_manage_users(&self) -> Result<(), ApiError> {
        if self.role.may_manage_users() { Ok(()) } else { Err(denied()) }
    }

    /// The caller of `req`, or the 401 to answer.
    pub(super) fn authenticate(req: &HttpRequest) -> Result<Caller, ApiError> {
        let tokens = req.app_data::<web::Data<AccessTokens>>().ok_or_else(|| {
            let error = std::io::Error::other("AccessTokens is not in the app data");
            ApiError::internal(&error)
        })?;
        let header = req.headers().get(AUTHORIZATION).and_then(|v| v.to_str().ok()).unwrap_or_default();
        let token = match header.split_once(' ') {
            Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty() => token.trim(),
            _ => return Err(ApiError::unauthorized("Sign in first: no bearer access token was sent")),
        };
        let claims = tokens.verify(token).map_err(|e| {
            tracing::debug!(reason = %e, "access token refused");
            match e {
                TokenError::Expired => ApiError::unauthorized("The access token has expired; refresh it"),
                TokenError::WrongType | TokenError::Invalid(_) => ApiError::unauthorized("The access token is invalid"),
            }
        })?;
        tokens.principals().check(&claims.sub, claims.ver).map_err(|refusal| match refusal {
            Refusal::Revoked => ApiError::unauthorized("The access token was revoked; refresh it"),
            Refusal::NotCaughtUp => ApiError::unavailable("The service is starting; try again in a moment"),
        })?;
        if claims.chg && tokens.principals().followed() && !PASSWORD_CHANGE_ROUTES.contains(&req.path()) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "password_change_required",
                "Change your password before you go on",
            ));
        }
        Ok(Caller { user_id: claims.sub, role: claims.role, source_ip: crate::client_ip(req) })
    }
}

fn denied() -> ApiError {
    ApiError::forbidden("Your role does not allow this action")
}

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = Ready<Result<Caller, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Caller::authenticate(req))
    }
}
