//! API keys, for admins (`/api/admin/api-keys`, docs/administration.md):
//! list, create (the key shown once) and revoke.

use actix_web::{HttpResponse, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use wm_http::{
    ApiError, JsonObject,
    auth::{AccessTokens, Caller},
};

use super::users::{actor, role};
use crate::{
    api_keys::{self, Listed},
    state::AuthState,
};

/// An API key as admins see it; never the key itself.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyView {
    #[schema(example = "6740a1b2c3d4e5f600000009")]
    id: String,
    name: String,
    /// The key's public start, to recognise it.
    #[schema(example = "wmk_3fq8k2ma")]
    prefix: String,
    /// `admin`, `operator` or `viewer`.
    role: &'static str,
    /// RFC 3339.
    created_at: String,
    /// The username of the admin who made it.
    created_by: Option<String>,
    /// RFC 3339.
    expires_at: String,
    revoked_at: Option<String>,
    /// When it was last used, to within a few seconds.
    last_used_at: Option<String>,
    /// The client address it was last used from.
    last_used_address: Option<String>,
    /// `active`, `expired` or `revoked`.
    #[schema(pattern = "^(active|expired|revoked)$")]
    status: &'static str,
}

impl ApiKeyView {
    fn of((key, creator): Listed, now: DateTime<Utc>) -> Self {
        Self {
            status: key.status(now).as_str(),
            id: key.id,
            name: key.name,
            prefix: key.prefix,
            role: key.role.as_str(),
            created_at: key.created_at.to_rfc3339(),
            created_by: creator,
            expires_at: key.expires_at.to_rfc3339(),
            revoked_at: key.revoked_at.map(|t| t.to_rfc3339()),
            last_used_at: key.last_used_at.map(|t| t.to_rfc3339()),
            last_used_address: key.last_used_address,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct ApiKeyList {
    /// Newest first.
    items: Vec<ApiKeyView>,
}

/// A key to make.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewApiKey {
    /// 1 to 100 characters, without control characters; trimmed.
    #[schema(example = "billing export", min_length = 1, max_length = 100)]
    name: String,
    /// `admin`, `operator` or `viewer`.
    #[schema(example = "viewer", pattern = "^(admin|operator|viewer)$")]
    role: String,
    /// RFC 3339, in the future and at most 730 days ahead.
    #[schema(example = "2027-06-30T00:00:00Z", format = DateTime)]
    expires_at: String,
}

/// A key just made, and the key itself: shown this once.
#[derive(Serialize, ToSchema)]
pub struct CreatedApiKey {
    key: ApiKeyView,
    /// `wmk_<prefix>_<secret>`: send it as `Authorization: Bearer <secret>`.
    #[schema(example = "wmk_3fq8k2ma_7f2m4q6s8u2w4y6a2c4e6g2i4k6m2o4q6s8u2w4y")]
    secret: String,
}

/// Every API key, newest first. Admins only.
#[utoipa::path(get, path = "/api/admin/api-keys", tag = "admin",
    responses((status = 200, body = ApiKeyList), (status = 403, description = "Admins only", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn list(caller: Caller, state: web::Data<AuthState>) -> Result<HttpResponse, ApiError> {
    caller.may_manage_users()?;
    let now = Utc::now();
    let items = api_keys::list(&state.db).await?.into_iter().map(|k| ApiKeyView::of(k, now)).collect();
    Ok(HttpResponse::Ok().json(ApiKeyList { items }))
}

/// Makes an API key; the answer holds the key, which is never shown again.
/// Admins only.
#[utoipa::path(post, path = "/api/admin/api-keys", tag = "admin", request_body = NewApiKey,
    responses((status = 201, body = CreatedApiKey),
        (status = 400, description = "A bad name, role or expiry, named in `fields`", body = ApiError),
        (status = 403, description = "Admins only", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn create(
    caller: Caller,
    state: web::Data<AuthState>,
    tokens: web::Data<AccessTokens>,
    body: JsonObject<NewApiKey>,
) -> Result<HttpResponse, ApiError> {
    caller.may_manage_users()?;
    let NewApiKey { name, role: wanted, expires_at } = body.into_inner();
    let role = role(&wanted)?;
    let expires_at = DateTime::parse_from_rfc3339(expires_at.trim()).map(|t| t.to_utc()).map_err(|_| {
        let message = "The expiry must be an RFC 3339 time, such as 2027-06-30T00:00:00Z";
        ApiError::validation(message).with_field("expiresAt", message)
    })?;
    let (key, secret) = api_keys::create(state.stores(&tokens), &actor(&caller), (&name, role, expires_at)).await?;
    Ok(HttpResponse::Created().json(CreatedApiKey { key: ApiKeyView::of(key, Utc::now()), secret }))
}

/// Revokes an API key: every replica refuses it from the next request on.
/// Admins only.
#[utoipa::path(post, path = "/api/admin/api-keys/{id}/revoke", tag = "admin",
    params(("id" = String, Path, description = "The key's id")),
    responses((status = 200, body = ApiKeyView),
        (status = 403, description = "Admins only", body = ApiError),
        (status = 404, description = "No such key", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn revoke(
    caller: Caller,
    state: web::Data<AuthState>,
    tokens: web::Data<AccessTokens>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    caller.may_manage_users()?;
    let key = api_keys::revoke(state.stores(&tokens), &actor(&caller), &id).await?;
    Ok(HttpResponse::Ok().json(ApiKeyView::of(key, Utc::now())))
}
