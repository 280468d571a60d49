use actix_web::{HttpRequest, HttpResponse, web};
use chrono::Utc;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use wm_http::{
    ApiError, JsonObject,
    auth::{AccessTokens, Subject},
};
use wm_proto::{Payload, v1::UserLoggedIn};

use crate::{
    AuthState, audit,
    error::AuthError,
    hashers::HashersError,
    metrics::Login,
    password,
    storage::{sessions, users},
};

/// A sign-in.
#[derive(Deserialize, ToSchema)]
pub struct Credentials {
    /// Trimmed before use.
    #[schema(example = "admin")]
    username: String,
    password: String,
}

/// A signed-in session; the refresh token travels in the cookie.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignedIn {
    /// A JWT for `Authorization: Bearer`, valid about 15 minutes.
    access_token: String,
    /// `admin`, `operator` or `viewer`.
    #[schema(example = "operator")]
    role: &'static str,
    #[schema(example = "6740a1b2c3d4e5f600000001")]
    user_id: String,
}

impl SignedIn {
    pub(super) fn new(access_token: String, user: &crate::users::User) -> Self {
        Self { access_token, role: user.role.as_str(), user_id: user.id.clone() }
    }
}

/// The access token `user` gets now.
pub(super) fn subject(user: &crate::users::User) -> Subject<'_> {
    Subject {
        user_id: &user.id,
        role: user.role,
        version: user.token_version,
        must_change_password: user.must_change_password,
    }
}

/// `POST /api/auth/login` → `{accessToken, role, userId}` and the refresh
/// cookie. Wrong username, wrong password and disabled user all get the
/// same 401, in about the same time.
#[utoipa::path(post, path = "/api/auth/login", tag = "auth", request_body = Credentials,
    responses(
        (status = 200, description = "Signed in; sets the refresh cookie", body = SignedIn),
        (status = 401, description = "`invalid_credentials`, whatever was wrong", body = ApiError),
        (status = 429, description = "Too many failed sign-ins, or too many sign-ins at once; see Retry-After", body = ApiError),
    ))]
#[tracing::instrument(skip_all, fields(ip))]
pub async fn post(
    req: HttpRequest,
    state: web::Data<AuthState>,
    tokens: web::Data<AccessTokens>,
    body: JsonObject<Credentials>,
) -> Result<HttpResponse, ApiError> {
    let Credentials { username, password } = body.into_inner();
    let username = username.trim().to_owned();
    let ip = wm_http::client_ip(&req);
    if let Err(retry_after_secs) = state.limiter.check(&state.db, ip, &username, Utc::now()).await? {
        tracing::warn!(?ip, "login throttled");
        state.logins.count(Login::Throttled);
        return Err(AuthError::Throttled { retry_after_secs }.into());
    }
    let found = users::find_for_login(&state.db, &username).await?;
    let hash = found.as_ref().map_or_else(|| state.dummy_hash.clone(), |(_, hash)| hash.clone());
    let matches = state.hashers.run(move || password::verify(&password, &hash)).await.map_err(|e| {
        if matches!(e, HashersError::Busy) {
            tracing::warn!(?ip, "login shed: the password hashing queue is full");
            state.logins.count(Login::Shed);
        }
        AuthError::from(e)
    })?;
    let user = match found {
        Some((user, _)) if matches && !user.disabled => user,
        _ => {
            state.limiter.record_failure(&state.db, ip, &username, Utc::now()).await?;
            tracing::info!(?ip, "login refused");
            state.logins.count(Login::Failed);
            return Err(AuthError::InvalidCredentials.into());
        }
    };
    let refresh = sessions::start(&state.db, &user.id, state.policy, Utc::now()).await?;
    let access_token = tokens.issue(&subject(&user)).map_err(AuthError::from)?;
    tracing::info!(user = user.id, "signed in");
    state.logins.count(Login::Succeeded);
    let event =
        UserLoggedIn { user_id: user.id.clone(), username: user.username.clone(), source_ip: audit::source_ip(&req) };
    state.audit.record(&user.id, &user.id, Payload::UserLoggedIn(event)).await;
    Ok(HttpResponse::Ok().cookie(state.cookie.with(&refresh.token)).json(SignedIn::new(access_token, &user)))
}
