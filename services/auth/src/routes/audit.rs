//! The audit trail, for admins.

use std::collections::HashMap;

use actix_web::{HttpResponse, web};
use serde::Serialize;
use utoipa::ToSchema;
use wm_http::{ApiError, auth::Caller, params};

use crate::{
    error::AuthError,
    state::AuthState,
    storage::audit::{self, AuditEntry},
};

/// Entries per page when `max` is not given, and the most allowed.
const DEFAULT_MAX: i64 = 50;
const MAX_MAX: i64 = 500;

/// One page of the trail.
#[derive(Serialize, ToSchema)]
pub struct AuditPage {
    /// The page returned, from 1.
    page: i64,
    /// Entries per page.
    max: i64,
    /// Entries in the whole trail.
    total: i64,
    /// Newest first.
    entries: Vec<AuditEntry>,
}

/// The audit trail: every operator mutation and refused attempt, newest
/// first. Admins only.
#[utoipa::path(get, path = "/api/audit", tag = "audit",
    params(
        ("page" = Option<i64>, Query, minimum = 1, maximum = 18446744073709551_i64, description = "The page, from 1 (default 1)"),
        ("max" = Option<i64>, Query, minimum = 1, maximum = 500, description = "Entries per page, 1 to 500 (default 50)"),
    ),
    responses(
        (status = 200, body = AuditPage),
        (status = 400, description = "page or max out of range", body = ApiError),
        (status = 403, description = "Only admins read the audit trail", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn get(
    caller: Caller,
    state: web::Data<AuthState>,
    query: web::Query<HashMap<String, String>>,
) -> Result<HttpResponse, ApiError> {
    caller.may_manage_users()?;
    let max = params::max(query.get("max").map(String::as_str), DEFAULT_MAX, MAX_MAX).map_err(AuthError::BadRequest)?;
    let page = match query.get("page") {
        None => 1,
        Some(page) => page
            .parse::<i64>()
            .ok()
            .filter(|p| (1..=i64::MAX / MAX_MAX).contains(p))
            .ok_or_else(|| AuthError::BadRequest(format!("page must be a whole number from 1, not {page:?}")))?,
    };
    let (entries, total) = audit::page(&state.db, page, max).await?;
    Ok(HttpResponse::Ok().json(AuditPage { page, max, total, entries }))
}
