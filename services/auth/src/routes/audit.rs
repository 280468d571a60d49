//! The audit trail, for admins.

use std::collections::HashMap;

use actix_web::{HttpResponse, web};
use bytes::Bytes;
use futures::StreamExt;
use serde::Serialize;
use utoipa::ToSchema;
use wm_http::{ApiError, auth::Caller, csv, params};

use crate::{
    error::AuthError,
    state::AuthState,
    storage::audit::{self, AuditEntry, AuditFilter, Outcome},
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
    /// Entries that match the filters, in all.
    total: i64,
    /// Newest first.
    entries: Vec<AuditEntry>,
}

/// The trail's filters from `query`; a bad time is a 400 naming it.
fn filter(query: &HashMap<String, String>) -> Result<AuditFilter, ApiError> {
    let text = |key: &str| query.get(key).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    // A time given empty is a bad time, not no time.
    let time = |key: &'static str| -> Result<Option<i64>, ApiError> {
        let Some(value) = query.get(key).map(|v| v.trim()) else { return Ok(None) };
        let parsed = params::start(value).map(|at| at.timestamp_micros()).map_err(|_| {
            let message = format!("{key} must be an ISO 8601 date or date-time, not {value:?}");
            ApiError::validation(message.clone()).with_field(key, message)
        })?;
        Ok(Some(parsed))
    };
    let outcome = text("outcome").map(|o| match o.as_str() {
        "ok" => Outcome::Succeeded,
        "refused" => Outcome::Refused,
        _ => Outcome::Code(o),
    });
    let filter = AuditFilter {
        actor: text("actor"),
        action: text("action"),
        target: text("target"),
        outcome,
        from_us: time("from")?,
        to_us: time("to")?,
    };
    if let (Some(from), Some(to)) = (filter.from_us, filter.to_us)
        && from >= to
    {
        let message = "from must come before to".to_owned();
        return Err(ApiError::validation(message.clone()).with_field("from", message));
    }
    Ok(filter)
}

/// The audit trail: every operator mutation and refused attempt, newest
/// first, filtered. Admins only.
#[utoipa::path(get, path = "/api/audit", tag = "audit",
    params(
        ("page" = Option<i64>, Query, minimum = 1, maximum = 18446744073709551_i64, description = "The page, from 1 (default 1)"),
        ("max" = Option<i64>, Query, minimum = 1, maximum = 500, description = "Entries per page, 1 to 500 (default 50)"),
        ("actor" = Option<String>, Query, description = "The actor's id, or a user's name in any case"),
        ("action" = Option<String>, Query, description = "An action (`meter.edit`), or its first part (`meter`)"),
        ("target" = Option<String>, Query, description = "The target's id"),
        ("outcome" = Option<String>, Query, description = "`ok`, `refused` (any refusal), or a refusal's code"),
        ("from" = Option<String>, Query, format = DateTime, description = "From this ISO 8601 date or date-time, included"),
        ("to" = Option<String>, Query, format = DateTime, description = "Until this ISO 8601 date or date-time, excluded"),
    ),
    responses(
        (status = 200, body = AuditPage),
        (status = 400, description = "page, max or a time out of range, named in `fields`", body = ApiError),
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
    let filter = filter(&query)?;
    let (entries, total) = audit::page(&state.db, &filter, page, max).await?;
    Ok(HttpResponse::Ok().json(AuditPage { page, max, total, entries }))
}

/// The filtered trail as CSV, newest first, streamed: `at, actor,
/// username, role, source_ip, action, target, outcome, detail, before,
/// after`. Admins only.
#[utoipa::path(get, path = "/api/audit/export", tag = "audit",
    params(
        ("actor" = Option<String>, Query, description = "As for /api/audit"),
        ("action" = Option<String>, Query, description = "As for /api/audit"),
        ("target" = Option<String>, Query, description = "As for /api/audit"),
        ("outcome" = Option<String>, Query, description = "As for /api/audit"),
        ("from" = Option<String>, Query, format = DateTime, description = "As for /api/audit"),
        ("to" = Option<String>, Query, format = DateTime, description = "As for /api/audit"),
    ),
    responses(
        (status = 200, description = "CSV", content_type = "text/csv", body = String),
        (status = 400, description = "A bad time, named in `fields`", body = ApiError),
        (status = 403, description = "Only admins read the audit trail", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn export(
    caller: Caller,
    state: web::Data<AuthState>,
    query: web::Query<HashMap<String, String>>,
) -> Result<HttpResponse, ApiError> {
    caller.may_manage_users()?;
    let filter = filter(&query)?;
    let (entries, received) = tokio::sync::mpsc::channel(1024);
    let db = state.db.clone();
    tokio::spawn(async move { audit::stream(&db, &filter, &entries).await });
    let mut header = String::new();
    let columns =
        ["at", "actor", "username", "role", "source_ip", "action", "target", "outcome", "detail", "before", "after"];
    csv::record(&mut header, columns);
    let lines = futures::stream::unfold(received, |mut received| async move {
        let entry = received.recv().await?;
        let line = entry.map(|e| Bytes::from(line(&e))).map_err(|e| {
            tracing::error!(error = ?e, "the audit export failed part way");
            std::io::Error::other("the export failed part way")
        });
        Some((line, received))
    });
    let body = futures::stream::once(async { Ok(Bytes::from(header)) }).chain(lines);
    let name = format!("audit-{}.csv", chrono::Utc::now().format("%Y-%m-%dT%H-%MZ"));
    Ok(csv::download(name).streaming(body))
}

/// One entry as a CSV line; what people typed is kept from running as a
/// formula.
fn line(e: &AuditEntry) -> String {
    let json = |v: &Option<serde_json::Value>| v.as_ref().map(ToString::to_string).unwrap_or_default();
    let (before, after) = (json(&e.before), json(&e.after));
    let username = e.username.clone().unwrap_or_default();
    let mut out = String::new();
    csv::record(
        &mut out,
        [
            e.at.as_str(),
            &csv::text(&e.actor),
            &csv::text(&username),
            &e.role,
            &e.source_ip,
            &csv::text(&e.action),
            &csv::text(&e.target),
            &csv::text(&e.outcome),
            &csv::text(&e.detail),
            &csv::text(&before),
            &csv::text(&after),
        ],
    );
    out
}
