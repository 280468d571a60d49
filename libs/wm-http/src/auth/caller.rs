use std::{
    future::{Ready, ready},
    net::IpAddr,
};

use actix_web::{
    FromRequest, HttpMessage, HttpRequest,
    dev::Payload,
    http::{StatusCode, header::AUTHORIZATION},
    web,
};

use chrono::Utc;

use super::{
    AccessTokens, Refusal, Role, TokenError,
    api_keys::{self, KeyRefusal, KeyUse},
};
use crate::ApiError;

/// What a user who must change their password may still reach: who they
/// are, and the change itself.
pub const PASSWORD_CHANGE_ROUTES: &[&str] = &["/api/auth/me", "/api/auth/password"];

/// The authenticated user (or API key) behind a request. Taking it as a handler argument
/// makes the route answer 401 (JSON) without a valid `Authorization: Bearer`
/// access token. The token never travels in the URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caller {
    pub user_id: String,
    pub role: Role,
    /// The client's address ([`crate::client_ip`]), for the audit trail.
    pub source_ip: Option<IpAddr>,
    /// The caller is an API key (`user_id` is then the key's id).
    pub api_key: bool,
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

    /// 403 unless the caller is a user: an API key has no account of its
    /// own (no profile, password or preferences).
    pub fn must_be_user(&self) -> Result<(), ApiError> {
        if self.api_key {
            return Err(ApiError::forbidden("An API key has no account of its own; sign in as a user"));
        }
        Ok(())
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
        if api_keys::is_api_key(token) {
            return Self::by_key(req, tokens, token);
        }
        let claims = tokens.verify(token).map_err(|e| {
            tracing::debug!(reason = %e, "access token refused");
            match e {
                TokenError::Expired => ApiError::unauthorized("The access token has expired; refresh it"),
                TokenError::WrongType | TokenError::Invalid(_) => ApiError::unauthorized("The access token is invalid"),
            }
        })?;
        tokens.principals().check(&claims.sub, claims.ver).map_err(|refusal| match refusal {
            Refusal::Revoked => ApiError::unauthorized("The access token was revoked; refresh it"),
            Refusal::NotCaughtUp => not_caught_up(),
        })?;
        if claims.chg && tokens.principals().followed() && !PASSWORD_CHANGE_ROUTES.contains(&req.path()) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "password_change_required",
                "Change your password before you go on",
            ));
        }
        Ok(Caller { user_id: claims.sub, role: claims.role, source_ip: crate::client_ip(req), api_key: false })
    }

    /// The caller behind the API key `key`: checked against the keys this
    /// process follows, its use noted for the last-used time.
    fn by_key(req: &HttpRequest, tokens: &AccessTokens, key: &str) -> Result<Caller, ApiError> {
        let principals = tokens.principals();
        if !principals.followed() {
            // Only a process without the auth topic, which no deployment runs.
            return Err(ApiError::unauthorized("This process does not take API keys"));
        }
        principals.check_caught_up().map_err(|_| not_caught_up())?;
        let now = Utc::now();
        let grant = principals.keys.check(key, now).map_err(|refusal| {
            tracing::debug!(?refusal, "API key refused");
            match refusal {
                KeyRefusal::Unknown => ApiError::unauthorized("The API key is invalid"),
                KeyRefusal::Revoked => ApiError::unauthorized("The API key was revoked"),
                KeyRefusal::Expired => ApiError::unauthorized("The API key has expired"),
            }
        })?;
        let path = req.path();
        if grant.role != Role::Admin && api_keys::ADMIN_ONLY_FOR_KEYS.iter().any(|p| path.starts_with(p)) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "api_key_not_allowed",
                "An API key reaches accounts, administration and the audit trail only with the admin role",
            ));
        }
        let source_ip = crate::client_ip(req);
        principals.keys.used(KeyUse { key_id: grant.id.clone(), at: now, source_ip });
        Ok(Caller { user_id: grant.id, role: grant.role, source_ip, api_key: true })
    }
}

fn not_caught_up() -> ApiError {
    ApiError::unavailable("The service is starting; try again in a moment")
}

fn denied() -> ApiError {
    ApiError::forbidden("Your role does not allow this action")
}

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = Ready<Result<Caller, ApiError>>;

    /// The caller [`require_token`](super::require_token) authenticated,
    /// or, on a route it does not guard, the token checked here.
    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let known = req.extensions().get::<Caller>().cloned();
        ready(known.map_or_else(|| Caller::authenticate(req), Ok))
    }
}
