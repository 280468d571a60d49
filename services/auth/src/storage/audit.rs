//! The audit trail as kept: one row per `AuditRecorded`, newest first.

use serde::Serialize;
use utoipa::ToSchema;
use wm_proto::{Envelope, Payload, time::to_datetime};
use wm_storage::{
    Db, StorageError, Tx,
    bulk::{self, Rows},
    execute,
    query::{self, Bind},
};

/// One audited attempt, as the API shows it.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    /// The event's id (UUIDv7).
    pub id: String,
    /// When, in UTC (ISO 8601).
    #[schema(example = "2026-11-23T08:15:00.123456Z")]
    pub at: String,
    /// The acting user's id, `cli` or `system:demo`.
    pub actor: String,
    /// The acting user's name, when the actor is a user.
    pub username: Option<String>,
    /// The actor's role at the time.
    #[schema(example = "operator")]
    pub role: String,
    /// The client's address; empty when the change did not come over HTTP.
    pub source_ip: String,
    /// What was attempted, e.g. `gateway.register`, `shutdown.confirm`.
    #[schema(example = "meter.edit")]
    pub action: String,
    /// The device's or user's id.
    pub target: String,
    /// The target before, as stored; null when it did not exist.
    #[schema(value_type = Option<Object>)]
    pub before: Option<serde_json::Value>,
    /// The target after; null when it no longer exists or on a refusal.
    #[schema(value_type = Option<Object>)]
    pub after: Option<serde_json::Value>,
    /// `ok`, or the error code the attempt was refused with.
    #[schema(example = "ok")]
    pub outcome: String,
    /// Why it was refused; empty when it succeeded.
    pub detail: String,
}

#[derive(sqlx::FromRow)]
struct Row {
    event_id: String,
    occurred_at: i64,
    actor: String,
    username: Option<String>,
    role: String,
    source_ip: String,
    action: String,
    target_id: String,
    before_json: Option<String>,
    after_json: Option<String>,
    outcome: String,
    detail: String,
}

impl From<Row> for AuditEntry {
    fn from(row: Row) -> Self {
        let json = |text: Option<String>| text.and_then(|t| serde_json::from_str(&t).ok());
        let at = chrono::DateTime::from_timestamp_micros(row.occurred_at).unwrap_or_default();
        AuditEntry {
            id: row.event_id,
            at: at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
            actor: row.actor,
            username: row.username,
            role: row.role,
            source_ip: row.source_ip,
            action: row.action,
            target: row.target_id,
            before: json(row.before_json),
            after: json(row.after_json),
            outcome: row.outcome,
            detail: row.detail,
        }
    }
}

/// Keeps every `AuditRecorded` among `envelopes`; one already kept is
/// skipped (delivery is at-least-once).
pub async fn keep_all(tx: &mut Tx, envelopes: &[Envelope]) -> Result<u64, StorageError> {
    let mut rows = Rows::new(11);
    for envelope in envelopes {
        let Some(Payload::AuditRecorded(r)) = &envelope.payload else { continue };
        let at = envelope.occurred_at.as_ref().and_then(to_datetime).map(|t| t.timestamp_micros()).unwrap_or(0);
        let optional = |text: &str| if text.is_empty() { Bind::NullText } else { text.into() };
        rows.push([
            envelope.event_id.as_str().into(),
            Bind::Int(at),
            envelope.actor.as_str().into(),
            r.role.as_str().into(),
            r.source_ip.as_str().into(),
            r.action.as_str().into(),
            r.target_id.as_str().into(),
            optional(&r.before_json),
            optional(&r.after_json),
            r.outcome.as_str().into(),
            r.detail.as_str().into(),
        ]);
    }
    let head = "INSERT INTO audit_log (event_id, occurred_at, actor, role, source_ip, action, target_id, \
                before_json, after_json, outcome, detail)";
    bulk::execute(tx, head, "ON CONFLICT (event_id) DO NOTHING", rows).await
}

/// The entries on `page` (from 1) of `max` each, newest first, and how many
/// there are in all.
/// The total comes from the same statement as the entries (a window
/// count), so the two describe one trail while entries keep arriving: an
/// empty first page is an empty trail. Only a later page past the end
/// counts on its own.
pub async fn page(db: &Db, page: i64, max: i64) -> Result<(Vec<AuditEntry>, i64), StorageError> {
    #[derive(sqlx::FromRow)]
    struct Counted {
        #[sqlx(flatten)]
        row: Row,
        total: i64,
    }
    let sql = "SELECT a.event_id, a.occurred_at, a.actor, u.username, a.role, a.source_ip, a.action, a.target_id, \
               a.before_json, a.after_json, a.outcome, a.detail, COUNT(*) OVER () AS total \
               FROM audit_log a LEFT JOIN users u ON u.id = a.actor \
               ORDER BY a.occurred_at DESC, a.event_id DESC LIMIT $1 OFFSET $2"
        .to_owned();
    let rows: Vec<Counted> = query::fetch_all(db, sql, vec![Bind::Int(max), Bind::Int((page - 1) * max)]).await?;
    let total = match rows.first() {
        Some(first) => first.total,
        None if page == 1 => 0,
        None => query::fetch_count(db, "SELECT COUNT(*) FROM audit_log".to_owned(), Vec::new()).await?,
    };
    Ok((rows.into_iter().map(|counted| AuditEntry::from(counted.row)).collect(), total))
}

/// Empties the trail, before a rebuild.
pub async fn reset(tx: &mut Tx) -> Result<(), StorageError> {
    execute!(tx, "DELETE FROM audit_log")?;
    Ok(())
}
