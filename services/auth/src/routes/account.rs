//! A user's own account: who they are, and their password.

use actix_web::{HttpRequest, HttpResponse, web};
use chrono::Utc;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use wm_http::{
    ApiError, JsonObject,
    auth::{AccessTokens, Caller},
};

use super::login::SignedIn;
use crate::{
    actions::{self, Actor},
    domain::account::Change,
    domain::preferences::Preferences,
    error::AuthError,
    password::{self, PasswordError},
    state::AuthState,
    storage::{sessions, users as stored},
    users,
};

/// The signed-in user.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Me {
    id: String,
    username: String,
    /// `admin`, `operator` or `viewer`.
    role: &'static str,
    /// The password is one-time: nothing else answers until it is changed.
    must_change_password: bool,
    /// The dashboard's language and theme, kept for this user.
    preferences: Preferences,
}

/// A password change.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PasswordChange {
    current_password: String,
    /// 8 to 256 characters.
    #[schema(min_length = 8, max_length = 256)]
    new_password: String,
}

/// Who is signed in. Answers even while the password must be changed.
#[utoipa::path(get, path = "/api/auth/me", tag = "auth",
    responses((status = 200, body = Me), (status = 401, description = "Not signed in", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn me(caller: Caller, state: web::Data<AuthState>) -> Result<HttpResponse, ApiError> {
    caller.must_be_user()?;
    let user = users::by_id(&state.db, &caller.user_id).await?;
    let preferences = stored::preferences(&state.db, &user.id).await?;
    Ok(HttpResponse::Ok().json(Me {
        id: user.id,
        username: user.username,
        role: user.role.as_str(),
        must_change_password: user.must_change_password,
        preferences,
    }))
}

/// Keeps the caller's dashboard language and theme, for every browser they
/// sign in from.
#[utoipa::path(put, path = "/api/auth/preferences", tag = "auth", request_body = Preferences,
    responses((status = 200, body = Preferences),
        (status = 400, description = "An unknown language or theme", body = ApiError),
        (status = 401, description = "Not signed in", body = ApiError),
        (status = 403, description = "An API key has no preferences", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn preferences(
    caller: Caller,
    state: web::Data<AuthState>,
    body: JsonObject<Preferences>,
) -> Result<HttpResponse, ApiError> {
    caller.must_be_user()?;
    let preferences = body.into_inner();
    stored::set_preferences(&state.db, &caller.user_id, preferences).await?;
    Ok(HttpResponse::Ok().json(preferences))
}

/// Changes the caller's own password. Every session they had ends, on
/// every service; this one goes on with the new tokens returned (and the
/// refresh cookie), as after a sign-in.
#[utoipa::path(post, path = "/api/auth/password", tag = "auth", request_body = PasswordChange,
    responses((status = 200, description = "Changed; sets a new refresh cookie", body = SignedIn),
        (status = 400, description = "A wrong current password or a bad new one, named in `fields`", body = ApiError),
        (status = 401, description = "Not signed in", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn change_password(
    req: HttpRequest,
    caller: Caller,
    state: web::Data<AuthState>,
    tokens: web::Data<AccessTokens>,
    body: JsonObject<PasswordChange>,
) -> Result<HttpResponse, ApiError> {
    caller.must_be_user()?;
    let PasswordChange { current_password, new_password } = body.into_inner();
    let user = users::by_id(&state.db, &caller.user_id).await?;
    let (_, hash) = stored::find_for_login(&state.db, &user.username).await?.ok_or(AuthError::InvalidCredentials)?;
    let matches =
        state.hashers.run(move || password::verify(&current_password, &hash)).await.map_err(AuthError::from)?;
    if !matches {
        return Err(AuthError::WrongPassword.into());
    }
    let broken = match password::check(&new_password) {
        Err(PasswordError::TooShort) => Some(format!("at least {}", password::MIN_PASSWORD_CHARS)),
        Err(PasswordError::TooLong) => Some(format!("at most {}", password::MAX_PASSWORD_CHARS)),
        _ => None,
    };
    if let Some(rule) = broken {
        let message = format!("The new password must be {rule} characters");
        return Err(ApiError::validation(message.clone()).with_field("newPassword", message));
    }
    let actor = Actor { id: caller.user_id.clone(), role: caller.role.as_str(), source_ip: caller.source_ip };
    let user = actions::change(
        state.stores(&tokens),
        &actor,
        &user.id,
        Change::Password { must_change: false },
        Some(&new_password),
    )
    .await?;
    let refresh = sessions::start(&state.db, &user.id, state.policy, Utc::now()).await?;
    let access_token = tokens.issue(&super::login::subject(&user)).map_err(AuthError::from)?;
    tracing::info!(user = user.id, ip = crate::audit::source_ip(&req), "password changed");
    Ok(HttpResponse::Ok().cookie(state.cookie.with(&refresh.token)).json(SignedIn::new(access_token, &user)))
}
