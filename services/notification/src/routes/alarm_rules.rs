//! Alarm rules, for admins (`/api/admin/rules`, docs/integrations.md):
//! list, create, change, delete, send a test message, read the delivery
//! log. A webhook's secret is write-only: no answer holds it.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;
use wm_eventlog::{audit::Attempt, outbox::Relay};
use wm_http::{ApiError, JsonObject, auth::Caller};
use wm_storage::Tx;

use crate::{
    domain::alarm_rule::{self, AlarmRule, Channel, Match},
    state::NotificationState,
    storage::{alarm_rules, deliveries},
};

/// Deliveries listed at most, newest first.
const DELIVERIES_MAX: i64 = 50;

/// Where a rule sends, as given: a webhook's secret may be left out to keep
/// the stored one.
#[derive(Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum ChannelInput {
    Email {
        /// 1 to 20 addresses.
        to: Vec<String>,
    },
    Webhook {
        /// An absolute http:// or https:// URL.
        url: String,
        /// 16 to 256 characters; required for a new webhook, `null` keeps
        /// the stored one.
        #[serde(default)]
        secret: Option<String>,
    },
}

/// A rule as given to create or change it.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RuleInput {
    /// 1 to 100 characters, without control characters.
    #[schema(min_length = 1, max_length = 100)]
    name: String,
    enabled: bool,
    #[serde(rename = "match")]
    matcher: Match,
    channel: ChannelInput,
    /// Alarms matched within this many seconds after the first go out as
    /// one message: 0 to 3600.
    #[schema(minimum = 0, maximum = 3600)]
    group_window_secs: u32,
}

/// Where a rule sends, as shown: never the secret.
#[derive(Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ChannelView {
    Email {
        to: Vec<String>,
    },
    Webhook {
        url: String,
        #[serde(rename = "secretSet")]
        secret_set: bool,
    },
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RuleView {
    id: String,
    name: String,
    enabled: bool,
    #[serde(rename = "match")]
    matcher: Match,
    channel: ChannelView,
    group_window_secs: u32,
    created_at: String,
    updated_at: String,
}

impl RuleView {
    fn of((rule, secret_set): (AlarmRule, bool)) -> Self {
        Self {
            channel: match rule.channel {
                Channel::Email { to } => ChannelView::Email { to },
                Channel::Webhook { url } => ChannelView::Webhook { url, secret_set },
            },
            id: rule.id,
            name: rule.name,
            enabled: rule.enabled,
            matcher: rule.matcher,
            group_window_secs: rule.group_window_secs,
            created_at: rule.created_at.to_rfc3339(),
            updated_at: rule.updated_at.to_rfc3339(),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct RuleList {
    /// By name.
    items: Vec<RuleView>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AttemptView {
    at: String,
    /// `ok` or `failed`.
    outcome: &'static str,
    /// The receiver's HTTP status, or the SMTP server's reply code.
    status_code: Option<u16>,
    latency_ms: u64,
    error: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryView {
    id: String,
    rule_id: String,
    created_at: String,
    /// `pending`, `delivered` or `abandoned`.
    status: &'static str,
    test: bool,
    alarm_count: usize,
    attempts: Vec<AttemptView>,
    /// Why it was given up.
    reason: Option<String>,
    /// When it is tried next, while pending.
    next_attempt_at: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct DeliveryList {
    /// Newest first, at most 50.
    items: Vec<DeliveryView>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestQueued {
    delivery_id: String,
}

fn admin(caller: &Caller) -> Result<(), ApiError> {
    caller.may_manage_users()
}

fn attempt(caller: &Caller, action: &'static str, target: &str) -> Attempt {
    Attempt::new(&caller.user_id, caller.role.as_str(), caller.source_ip, action).on(target)
}

/// A rule as the audit trail shows it: never the secret.
fn audit_json(rule: &AlarmRule) -> String {
    json!({"id": rule.id, "name": rule.name, "enabled": rule.enabled, "match": rule.matcher,
           "channel": rule.channel, "groupWindowSecs": rule.group_window_secs})
    .to_string()
}

async fn audited(relay: &Relay, tx: &mut Tx, rule_id: &str, record: wm_proto::Envelope) -> Result<(), ApiError> {
    relay.stage(tx, Some(rule_id), &[record]).await?;
    Ok(())
}

/// The rule of `input`, checked; its new secret, if one is given.
fn rule_of(
    input: RuleInput,
    id: String,
    existing: Option<(&AlarmRule, bool)>,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<(AlarmRule, Option<String>), ApiError> {
    let (channel, secret) = match input.channel {
        ChannelInput::Email { to } => (Channel::Email { to: to.iter().map(|a| a.trim().to_owned()).collect() }, None),
        ChannelInput::Webhook { url, secret } => (Channel::Webhook { url: url.trim().to_owned() }, secret),
    };
    let rule = AlarmRule {
        id,
        name: input.name.trim().to_owned(),
        enabled: input.enabled,
        matcher: input.matcher,
        channel,
        group_window_secs: input.group_window_secs,
        created_at: existing.map_or(now, |(rule, _)| rule.created_at),
        updated_at: now,
    };
    let had_secret = existing.is_some_and(|(old, set)| set && matches!(old.channel, Channel::Webhook { .. }));
    alarm_rule::check(&rule, secret.as_deref(), had_secret).map_err(|invalid| {
        let first = invalid.first().map_or_else(String::new, |(_, message)| message.clone());
        invalid.into_iter().fold(ApiError::validation(first), |e, (field, message)| e.with_field(field, message))
    })?;
    Ok((rule, secret))
}

/// Every alarm rule, by name. Admins only.
#[utoipa::path(get, path = "/api/admin/rules", tag = "admin",
    responses((status = 200, body = RuleList), (status = 403, description = "Admins only", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn list(caller: Caller, state: web::Data<NotificationState>) -> Result<HttpResponse, ApiError> {
    admin(&caller)?;
    let items = alarm_rules::list(&state.db).await?.into_iter().map(RuleView::of).collect();
    Ok(HttpResponse::Ok().json(RuleList { items }))
}

/// Creates an alarm rule. Admins only.
#[utoipa::path(post, path = "/api/admin/rules", tag = "admin", request_body = RuleInput,
    responses((status = 201, body = RuleView),
        (status = 400, description = "A field breaks its rule, named in `fields`", body = ApiError),
        (status = 403, description = "Admins only", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn create(
    caller: Caller,
    state: web::Data<NotificationState>,
    body: JsonObject<RuleInput>,
) -> Result<HttpResponse, ApiError> {
    admin(&caller)?;
    let now = state.clock.now();
    let (rule, secret) = rule_of(body.into_inner(), wm_domain::DeviceId::new().to_string(), None, now)?;
    let mut tx = state.db.begin_write().await?;
    alarm_rules::save(&mut tx, &rule, secret.as_deref()).await?;
    audited(
        &state.relay,
        &mut tx,
        &rule.id,
        attempt(&caller, "rule.create", &rule.id).succeeded(None, Some(audit_json(&rule)), now),
    )
    .await?;
    tx.commit().await?;
    state.relay.wake();
    let saved = alarm_rules::find(&state.db, &rule.id).await?.ok_or_else(|| ApiError::not_found("No such rule"))?;
    Ok(HttpResponse::Created().json(RuleView::of(saved)))
}

/// Changes an alarm rule; a webhook's secret left out is kept. Admins only.
#[utoipa::path(put, path = "/api/admin/rules/{id}", tag = "admin", request_body = RuleInput,
    params(("id" = String, Path, description = "The rule's id")),
    responses((status = 200, body = RuleView),
        (status = 400, description = "A field breaks its rule, named in `fields`", body = ApiError),
        (status = 403, description = "Admins only", body = ApiError),
        (status = 404, description = "No such rule", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn update(
    caller: Caller,
    state: web::Data<NotificationState>,
    id: web::Path<String>,
    body: JsonObject<RuleInput>,
) -> Result<HttpResponse, ApiError> {
    admin(&caller)?;
    let existing = alarm_rules::find(&state.db, &id).await?.ok_or_else(|| ApiError::not_found("No such rule"))?;
    let now = state.clock.now();
    let (rule, secret) = rule_of(body.into_inner(), id.clone(), Some((&existing.0, existing.1)), now)?;
    let mut tx = state.db.begin_write().await?;
    alarm_rules::save(&mut tx, &rule, secret.as_deref()).await?;
    let record = attempt(&caller, "rule.update", &rule.id).succeeded(
        Some(audit_json(&existing.0)),
        Some(audit_json(&rule)),
        now,
    );
    audited(&state.relay, &mut tx, &rule.id, record).await?;
    tx.commit().await?;
    state.relay.wake();
    let saved = alarm_rules::find(&state.db, &rule.id).await?.ok_or_else(|| ApiError::not_found("No such rule"))?;
    Ok(HttpResponse::Ok().json(RuleView::of(saved)))
}

/// Deletes an alarm rule and its delivery log. Admins only.
#[utoipa::path(delete, path = "/api/admin/rules/{id}", tag = "admin",
    params(("id" = String, Path, description = "The rule's id")),
    responses((status = 204, description = "Deleted"),
        (status = 403, description = "Admins only", body = ApiError),
        (status = 404, description = "No such rule", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn delete(
    caller: Caller,
    state: web::Data<NotificationState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    admin(&caller)?;
    let (existing, _) = alarm_rules::find(&state.db, &id).await?.ok_or_else(|| ApiError::not_found("No such rule"))?;
    let mut tx = state.db.begin_write().await?;
    alarm_rules::delete(&mut tx, &id).await?;
    let record = attempt(&caller, "rule.delete", &id).succeeded(Some(audit_json(&existing)), None, state.clock.now());
    audited(&state.relay, &mut tx, &id, record).await?;
    tx.commit().await?;
    state.relay.wake();
    Ok(HttpResponse::NoContent().finish())
}

/// Queues a test message of the rule, sent at once. Admins only.
#[utoipa::path(post, path = "/api/admin/rules/{id}/test", tag = "admin",
    params(("id" = String, Path, description = "The rule's id")),
    responses((status = 202, body = TestQueued),
        (status = 403, description = "Admins only", body = ApiError),
        (status = 404, description = "No such rule", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn test(
    caller: Caller,
    state: web::Data<NotificationState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    admin(&caller)?;
    alarm_rules::find(&state.db, &id).await?.ok_or_else(|| ApiError::not_found("No such rule"))?;
    let mut tx = state.db.begin_write().await?;
    let delivery_id = deliveries::test(&mut tx, &id, state.clock.now()).await?;
    tx.commit().await?;
    state.deliveries_due.notify_one();
    Ok(HttpResponse::Accepted().json(TestQueued { delivery_id }))
}

/// The rule's latest deliveries, newest first, each with its attempts.
/// Admins only.
#[utoipa::path(get, path = "/api/admin/rules/{id}/deliveries", tag = "admin",
    params(("id" = String, Path, description = "The rule's id")),
    responses((status = 200, body = DeliveryList),
        (status = 403, description = "Admins only", body = ApiError),
        (status = 404, description = "No such rule", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn deliveries(
    caller: Caller,
    state: web::Data<NotificationState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    admin(&caller)?;
    alarm_rules::find(&state.db, &id).await?.ok_or_else(|| ApiError::not_found("No such rule"))?;
    let items = deliveries::of_rule(&state.db, &id, DELIVERIES_MAX)
        .await?
        .into_iter()
        .map(|(delivery, attempts)| DeliveryView {
            next_attempt_at: (delivery.status == crate::domain::delivery::Status::Pending)
                .then(|| delivery.due_at.to_rfc3339()),
            status: delivery.status.as_str(),
            alarm_count: delivery.alarms.len(),
            attempts: attempts
                .into_iter()
                .map(|a| AttemptView {
                    at: a.at.to_rfc3339(),
                    outcome: if a.ok { "ok" } else { "failed" },
                    status_code: a.status_code,
                    latency_ms: a.latency_ms,
                    error: a.error,
                })
                .collect(),
            id: delivery.id,
            rule_id: delivery.rule_id,
            created_at: delivery.created_at.to_rfc3339(),
            test: delivery.test,
            reason: delivery.reason,
        })
        .collect();
    Ok(HttpResponse::Ok().json(DeliveryList { items }))
}
