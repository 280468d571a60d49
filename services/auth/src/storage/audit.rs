//! The audit trail as kept: one row per `AuditRecorded`, newest first.

use serde::Serialize;
use utoipa::ToSchema;
use wm_proto::{Envelope, Payload, time::to_datetime};
use wm_storage::{
    Db, StorageError, Tx,
    bulk::{self, Rows},
    execute,
    query::{self, Bind, Conditions},
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
    /// The acting user's name, or an API key's name and prefix.
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
wm_storage::from_row!(Row {
    event_id,
    occurred_at,
    actor,
    username,
    role,
    source_ip,
    action,
    target_id,
    before_json,
    after_json,
    outcome,
    detail
});

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

/// Which entries of the trail: each given part must hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AuditFilter {
    /// The actor's id, a user's name in any case, or an API key's prefix.
    pub actor: Option<String>,
    /// An action (`meter.edit`), or what actions start with before a dot
    /// (`meter`).
    pub action: Option<String>,
    /// The target's id.
    pub target: Option<String>,
    pub outcome: Option<Outcome>,
    /// From this instant (µs), included.
    pub from_us: Option<i64>,
    /// Until this instant (µs), excluded.
    pub to_us: Option<i64>,
}

/// How an attempt ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Succeeded,
    /// Refused, whatever the code.
    Refused,
    /// Refused with this code.
    Code(String),
}

impl AuditFilter {
    fn conditions(&self) -> Conditions {
        let mut c = Conditions::default();
        if let Some(actor) = &self.actor {
            c.push(actor.as_str().into(), |p| {
                format!("(a.actor = {p} OR lower(u.username) = lower({p}) OR k.prefix = lower({p}))")
            });
        }
        if let Some(action) = &self.action {
            let prefix = format!("{}.%", query::like_literal(action));
            let exact = c.bind(action.as_str().into());
            c.push(prefix.into(), |p| format!("(a.action = {exact} OR a.action LIKE {p} ESCAPE '\\')"));
        }
        if let Some(target) = &self.target {
            c.push(target.as_str().into(), |p| format!("a.target_id = {p}"));
        }
        match &self.outcome {
            Some(Outcome::Succeeded) => c.push_fixed("a.outcome = 'ok'"),
            Some(Outcome::Refused) => c.push_fixed("a.outcome <> 'ok'"),
            Some(Outcome::Code(code)) => c.push(code.as_str().into(), |p| format!("a.outcome = {p}")),
            None => {}
        }
        if let Some(from) = self.from_us {
            c.push(Bind::Int(from), |p| format!("a.occurred_at >= {p}"));
        }
        if let Some(to) = self.to_us {
            c.push(Bind::Int(to), |p| format!("a.occurred_at < {p}"));
        }
        c
    }
}

/// An API key acts under its name and prefix: `billing (wmk_3fq8k2ma)`.
const SELECT: &str = "SELECT a.event_id, a.occurred_at, a.actor, \
                      COALESCE(u.username, k.name || ' (' || k.prefix || ')') AS username, a.role, a.source_ip, a.action, \
                      a.target_id, a.before_json, a.after_json, a.outcome, a.detail";
const FROM: &str = "FROM audit_log a LEFT JOIN users u ON u.id = a.actor LEFT JOIN api_keys k ON k.id = a.actor";
const NEWEST_FIRST: &str = "ORDER BY a.occurred_at DESC, a.event_id DESC";

/// The entries of `filter` on `page` (from 1) of `max` each, newest first,
/// and how many there are in all.
/// The total comes from the same statement as the entries (a window
/// count), so the two describe one trail while entries keep arriving: an
/// empty first page is an empty trail. Only a later page past the end
/// counts on its own.
pub async fn page(db: &Db, filter: &AuditFilter, page: i64, max: i64) -> Result<(Vec<AuditEntry>, i64), StorageError> {
    struct Counted {
        row: Row,
        total: i64,
    }
    wm_storage::from_row!(Counted { ..row, total });
    let mut c = filter.conditions();
    let where_clause = c.where_clause();
    let (limit, offset) = (c.bind(Bind::Int(max)), c.bind(Bind::Int((page - 1) * max)));
    let sql = format!(
        "{SELECT}, COUNT(*) OVER () AS total {FROM}{where_clause} {NEWEST_FIRST} LIMIT {limit} OFFSET {offset}"
    );
    let rows: Vec<Counted> = query::fetch_all(db, sql, c.into_binds()).await?;
    let total = match rows.first() {
        Some(first) => first.total,
        None if page == 1 => 0,
        None => {
            let c = filter.conditions();
            query::fetch_count(db, format!("SELECT COUNT(*) {FROM}{}", c.where_clause()), c.into_binds()).await?
        }
    };
    Ok((rows.into_iter().map(|counted| AuditEntry::from(counted.row)).collect(), total))
}

/// Every entry of `filter`, newest first, sent to `sink` as the database
/// reads them (an export never holds the trail in memory).
pub async fn stream(db: &Db, filter: &AuditFilter, sink: &tokio::sync::mpsc::Sender<Result<AuditEntry, StorageError>>) {
    let (rows, mut received) = tokio::sync::mpsc::channel::<Result<Row, StorageError>>(256);
    let c = filter.conditions();
    let sql = format!("{SELECT} {FROM}{} {NEWEST_FIRST}", c.where_clause());
    let binds = c.into_binds();
    // The sender goes with the read, so the forwarding ends with it.
    let reading = async move { query::send_rows(db, sql, binds, &rows).await };
    let forwarding = async {
        while let Some(row) = received.recv().await {
            if sink.send(row.map(AuditEntry::from)).await.is_err() {
                break;
            }
        }
    };
    tokio::join!(reading, forwarding);
}

/// Empties the trail, before a rebuild.
pub async fn reset(tx: &mut Tx) -> Result<(), StorageError> {
    execute!(tx, "DELETE FROM audit_log")?;
    Ok(())
}
