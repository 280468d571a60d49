//! Users, for admins (`/api/admin/users`, docs/administration.md): list
//! and search, create, change a role, disable and enable, reset a password,
//! revoke every session.

use std::collections::HashMap;

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use wm_http::{
    ApiError, JsonObject,
    auth::{AccessTokens, Caller, Role},
};

use crate::{
    actions::{self, Actor},
    domain::account::Change,
    state::AuthState,
    users::{self, User},
};

/// A user as admins see it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserView {
    #[schema(example = "6740a1b2c3d4e5f600000001")]
    id: String,
    username: String,
    /// `admin`, `operator` or `viewer`.
    role: &'static str,
    disabled: bool,
    /// When the account was made (RFC 3339).
    created_at: String,
    /// The password is one-time: the user must change it first.
    must_change_password: bool,
}

impl From<&User> for UserView {
    fn from(user: &User) -> Self {
        Self {
            id: user.id.clone(),
            username: user.username.clone(),
            role: user.role.as_str(),
            disabled: user.disabled,
            created_at: user.created_at.to_rfc3339(),
            must_change_password: user.must_change_password,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct UserList {
    /// By username.
    items: Vec<UserView>,
}

/// A new user: with `password`, theirs to keep; without, a one-time
/// password is made, shown once, and must be changed at the first sign-in.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewUser {
    /// 1 to 64 characters, without control characters; trimmed.
    #[schema(
        example = "ann",
        min_length = 1,
        max_length = 64,
        pattern = "^[^\\u0000-\\u001f\\u007f-\\u009f]*[^\\s\\u0000-\\u001f\\u007f-\\u009f][^\\u0000-\\u001f\\u007f-\\u009f]*$"
    )]
    username: String,
    /// `admin`, `operator` or `viewer`.
    #[schema(example = "operator", pattern = "^(admin|operator|viewer)$")]
    role: String,
    /// 8 to 256 characters.
    #[schema(min_length = 8, max_length = 256)]
    password: Option<String>,
}

/// A user just made, and their one-time password if one was made.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedUser {
    user: UserView,
    #[serde(skip_serializing_if = "Option::is_none")]
    one_time_password: Option<String>,
}

/// What changes; a field left out stays.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UserPatch {
    /// `admin`, `operator` or `viewer`.
    #[schema(pattern = "^(admin|operator|viewer)$")]
    role: Option<String>,
    disabled: Option<bool>,
}

/// A one-time password, shown once.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OneTimePassword {
    one_time_password: String,
}

pub(super) fn actor(caller: &Caller) -> Actor {
    Actor { id: caller.user_id.clone(), role: caller.role.as_str(), source_ip: caller.source_ip }
}

pub(super) fn role(text: &str) -> Result<Role, ApiError> {
    text.parse::<Role>().map_err(|message| ApiError::validation(message.clone()).with_field("role", message))
}

/// The users whose name holds `q` (any case), by username. Admins only.
#[utoipa::path(get, path = "/api/admin/users", tag = "admin",
    params(("q" = Option<String>, Query, description = "Part of the username, in any case")),
    responses((status = 200, body = UserList), (status = 403, description = "Admins only", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn list(
    caller: Caller,
    state: web::Data<AuthState>,
    query: web::Query<HashMap<String, String>>,
) -> Result<HttpResponse, ApiError> {
    caller.may_manage_users()?;
    let found = users::search(&state.db, query.get("q").map_or("", String::as_str)).await?;
    Ok(HttpResponse::Ok().json(UserList { items: found.iter().map(UserView::from).collect() }))
}

/// Creates a user. Admins only.
#[utoipa::path(post, path = "/api/admin/users", tag = "admin", request_body = NewUser,
    responses((status = 201, body = CreatedUser),
        (status = 400, description = "A bad username, role or password, named in `fields`", body = ApiError),
        (status = 403, description = "Admins only", body = ApiError),
        (status = 409, description = "`already_in_use`: the username is taken", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn create(
    caller: Caller,
    state: web::Data<AuthState>,
    body: JsonObject<NewUser>,
) -> Result<HttpResponse, ApiError> {
    caller.may_manage_users()?;
    let NewUser { username, role: wanted, password } = body.into_inner();
    let role = role(&wanted)?;
    let one_time = password.is_none().then(actions::random_password);
    let password = password.or_else(|| one_time.clone()).unwrap_or_default();
    let user =
        actions::create(&state.db, &state.audit, &actor(&caller), (&username, &password, role), one_time.is_some())
            .await?;
    Ok(HttpResponse::Created().json(CreatedUser { user: UserView::from(&user), one_time_password: one_time }))
}

/// Changes a user's role or state. The last enabled admin stays one, and
/// nobody demotes or disables themselves. Their sessions end, on every
/// service, on their next request. Admins only.
#[utoipa::path(patch, path = "/api/admin/users/{id}", tag = "admin", request_body = UserPatch,
    params(("id" = String, Path, description = "The user's id")),
    responses((status = 200, body = UserView),
        (status = 400, description = "A bad role", body = ApiError),
        (status = 403, description = "Admins only", body = ApiError),
        (status = 404, description = "No such user", body = ApiError),
        (status = 409, description = "`last_admin` or `own_account`", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn patch(
    caller: Caller,
    state: web::Data<AuthState>,
    tokens: web::Data<AccessTokens>,
    id: web::Path<String>,
    body: JsonObject<UserPatch>,
) -> Result<HttpResponse, ApiError> {
    caller.may_manage_users()?;
    let UserPatch { role: wanted, disabled } = body.into_inner();
    let mut changes = Vec::new();
    if let Some(wanted) = wanted {
        changes.push(Change::Role(role(&wanted)?));
    }
    match disabled {
        Some(true) => changes.push(Change::Disable),
        Some(false) => changes.push(Change::Enable),
        None => {}
    }
    let mut user = users::by_id(&state.db, &id).await?;
    for change in changes {
        user = actions::change(state.stores(&tokens), &actor(&caller), &id, change, None).await?;
    }
    Ok(HttpResponse::Ok().json(UserView::from(&user)))
}

/// Sets a new one-time password, shown once, and ends the user's sessions.
/// Admins only.
#[utoipa::path(post, path = "/api/admin/users/{id}/password-reset", tag = "admin",
    params(("id" = String, Path, description = "The user's id")),
    responses((status = 200, body = OneTimePassword),
        (status = 403, description = "Admins only", body = ApiError),
        (status = 404, description = "No such user", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn reset_password(
    caller: Caller,
    state: web::Data<AuthState>,
    tokens: web::Data<AccessTokens>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    caller.may_manage_users()?;
    let password = actions::random_password();
    actions::change(
        state.stores(&tokens),
        &actor(&caller),
        &id,
        Change::Password { must_change: true },
        Some(&password),
    )
    .await?;
    Ok(HttpResponse::Ok().json(OneTimePassword { one_time_password: password }))
}

/// Ends every session of the user: refresh tokens at once, access tokens
/// on their next request, on every service. Admins only.
#[utoipa::path(post, path = "/api/admin/users/{id}/revoke-sessions", tag = "admin",
    params(("id" = String, Path, description = "The user's id")),
    responses((status = 204, description = "Every session ended"),
        (status = 403, description = "Admins only", body = ApiError),
        (status = 404, description = "No such user", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn revoke_sessions(
    caller: Caller,
    state: web::Data<AuthState>,
    tokens: web::Data<AccessTokens>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    caller.may_manage_users()?;
    actions::change(state.stores(&tokens), &actor(&caller), &id, Change::RevokeSessions, None).await?;
    Ok(HttpResponse::NoContent().finish())
}
