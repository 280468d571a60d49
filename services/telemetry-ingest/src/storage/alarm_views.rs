//! Alarms as the API shows them: filtered, sorted and paged by keyset,
//! one with its history, the counts by status and the users they can be
//! assigned to. Device and user names are resolved here, so the dashboard
//! never shows a raw id.

use std::collections::HashMap;

use serde::Serialize;
use utoipa::ToSchema;
use wm_domain::iso_micros;
use wm_storage::{
    Db, StorageError,
    query::{self, Bind, Conditions},
};

use super::alarm_filter::{AlarmFilter, Assignee, Cursor, Page, SortKey};
use crate::domain::alarm::Status;

/// Someone who did something: a user, a gateway or w-meter itself.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Actor {
    /// The user id, `gateway:{serial}` or `service:{name}`.
    pub id: String,
    /// The username, `GTW-{serial}` or `w-meter`.
    pub name: String,
}

/// An alarm.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlarmView {
    #[schema(example = "3f2a9c1b0d4e5f6a7b8c9d0e")]
    pub id: String,
    pub device_id: String,
    #[schema(example = "meter")]
    pub device_kind: String,
    #[schema(example = "W-0000000042")]
    pub device_name: String,
    #[serde(rename = "type")]
    #[schema(example = "leak")]
    pub alarm_type: String,
    #[schema(example = "critical")]
    pub severity: String,
    #[schema(example = "active")]
    pub status: String,
    /// What raised it (the gateway, the command…), as an object.
    #[schema(value_type = Object)]
    pub details: serde_json::Value,
    pub raised_at: String,
    pub raised_by: Actor,
    pub assignee: Option<Actor>,
    pub acknowledged_at: Option<String>,
    pub acknowledged_by: Option<Actor>,
    pub cleared_at: Option<String>,
    pub cleared_by: Option<Actor>,
    pub closed_at: Option<String>,
    pub closed_by: Option<Actor>,
    pub updated_at: String,
}

/// One step of an alarm's history.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct HistoryEntry {
    /// The event's id.
    pub id: String,
    /// `raised`, `acknowledged`, `assigned`, `commented`, `cleared` or `closed`.
    #[schema(example = "acknowledged")]
    pub action: String,
    pub actor: Actor,
    /// The note, or the comment's text.
    pub note: String,
    /// Whom an `assigned` step gave it to (null: taken back).
    pub assignee: Option<Actor>,
    pub at: String,
}

/// An alarm with its history, oldest step first.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct AlarmDetail {
    #[serde(flatten)]
    pub alarm: AlarmView,
    pub history: Vec<HistoryEntry>,
}

/// A page of alarms, and the cursor of the next one (null: the last page).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct AlarmPage {
    pub items: Vec<AlarmView>,
    pub next: Option<String>,
}

/// How many alarms are in each status.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct AlarmCounts {
    pub active: i64,
    pub acknowledged: i64,
    pub cleared: i64,
    pub closed: i64,
}

/// A user an alarm can be assigned to.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Assignable {
    pub user_id: String,
    pub username: String,
    pub role: String,
}
wm_storage::from_row!(Assignable { user_id, username, role });

const SELECT: &str = "SELECT a.alarm_id, a.device_id, a.device_kind, a.alarm_type, a.severity, a.status, a.details, \
    a.raised_by, a.raised_at, a.assignee, a.acknowledged_by, a.acknowledged_at, a.cleared_by, a.cleared_at, \
    a.closed_by, a.closed_at, a.updated_at, COALESCE(m.device_name, 'GTW-' || g.serial_number) AS device_name \
    FROM alarms a LEFT JOIN ingest_meters m ON a.device_kind = 'meter' AND m.id = a.device_id \
    LEFT JOIN ingest_gateways g ON a.device_kind = 'gateway' AND g.id = a.device_id";

struct Row {
    alarm_id: String,
    device_id: String,
    device_kind: String,
    alarm_type: String,
    severity: String,
    status: String,
    details: String,
    raised_by: String,
    raised_at: i64,
    assignee: Option<String>,
    acknowledged_by: Option<String>,
    acknowledged_at: Option<i64>,
    cleared_by: Option<String>,
    cleared_at: Option<i64>,
    closed_by: Option<String>,
    closed_at: Option<i64>,
    updated_at: i64,
    /// The device's name, unless it was deleted.
    device_name: Option<String>,
}
wm_storage::from_row!(Row {
    alarm_id,
    device_id,
    device_kind,
    alarm_type,
    severity,
    status,
    details,
    raised_by,
    raised_at,
    assignee,
    acknowledged_by,
    acknowledged_at,
    cleared_by,
    cleared_at,
    closed_by,
    closed_at,
    updated_at,
    device_name
});

/// A page of the alarms `filter` selects.
pub async fn list(db: &Db, filter: &AlarmFilter, page: &Page) -> Result<AlarmPage, StorageError> {
    let mut conditions = conditions(filter);
    let (direction, compare) = if page.descending { ("DESC", "<") } else { ("ASC", ">") };
    let order = match page.sort {
        SortKey::RaisedAt => format!("a.raised_at {direction}, a.alarm_id {direction}"),
        SortKey::Severity => format!("a.severity {direction}, a.raised_at {direction}, a.alarm_id {direction}"),
    };
    if let Some(after) = &page.after {
        let at = conditions.bind(Bind::Int(after.raised_at));
        let id = conditions.bind(Bind::Text(after.alarm_id.clone()));
        let keyset = match page.sort {
            SortKey::Severity => {
                let severity = conditions.bind(after.severity.as_str().into());
                format!("(a.severity, a.raised_at, a.alarm_id) {compare} ({severity}, {at}, {id})")
            }
            SortKey::RaisedAt => format!("(a.raised_at, a.alarm_id) {compare} ({at}, {id})"),
        };
        conditions.push_fixed(keyset);
    }
    let where_clause = conditions.where_clause();
    let limit = conditions.bind(Bind::Int(page.max + 1));
    let sql = format!("{SELECT}{where_clause} ORDER BY {order} LIMIT {limit}");
    let mut rows: Vec<Row> = query::fetch_all(db, sql, conditions.into_binds()).await?;
    let more = rows.len() as i64 > page.max;
    rows.truncate(usize::try_from(page.max).unwrap_or_default());
    let next = match rows.last().filter(|_| more) {
        Some(last) => Some(Cursor {
            severity: last
                .severity
                .parse()
                .map_err(|_| StorageError::Corrupt { field: "severity", value: last.severity.clone() })?,
            raised_at: last.raised_at,
            alarm_id: last.alarm_id.clone(),
        }),
        None => None,
    };
    let items = views(db, rows).await?;
    Ok(AlarmPage { items, next: next.map(|c| c.encode()) })
}

fn conditions(filter: &AlarmFilter) -> Conditions {
    let mut conditions = Conditions::default();
    any_of(&mut conditions, "a.status", filter.statuses.iter().map(|s| s.as_str()));
    any_of(&mut conditions, "a.severity", filter.severities.iter().map(|s| s.as_str()));
    any_of(&mut conditions, "a.alarm_type", filter.types.iter().map(String::as_str));
    if let Some(device) = &filter.device_id {
        conditions.push(Bind::Text(device.clone()), |p| format!("a.device_id = {p}"));
    }
    match &filter.assignee {
        Some(Assignee::User(user)) => conditions.push(Bind::Text(user.clone()), |p| format!("a.assignee = {p}")),
        Some(Assignee::Nobody) => conditions.push_fixed("a.assignee IS NULL"),
        None => {}
    }
    if let Some(from) = filter.from {
        conditions.push(Bind::Int(from), |p| format!("a.raised_at >= {p}"));
    }
    if let Some(to) = filter.to {
        conditions.push(Bind::Int(to), |p| format!("a.raised_at < {p}"));
    }
    conditions
}

/// `column IN (values…)`, unless there are no values.
fn any_of<'a>(conditions: &mut Conditions, column: &str, values: impl Iterator<Item = &'a str>) {
    let placeholders: Vec<String> = values.map(|v| conditions.bind(v.into())).collect();
    if !placeholders.is_empty() {
        conditions.push_fixed(format!("{column} IN ({})", placeholders.join(", ")));
    }
}

/// The alarm with its history, if it exists.
pub async fn get(db: &Db, alarm_id: &str) -> Result<Option<AlarmDetail>, StorageError> {
    let sql = format!("{SELECT} WHERE a.alarm_id = $1");
    let Some(row) = query::fetch_optional::<Row>(db, sql, vec![alarm_id.into()]).await? else { return Ok(None) };
    let sql = "SELECT event_id, action, actor, note, assignee, occurred_at FROM alarm_history \
               WHERE alarm_id = $1 ORDER BY occurred_at, event_id";
    let steps: Vec<(String, String, String, String, Option<String>, i64)> =
        query::fetch_all(db, sql.to_owned(), vec![alarm_id.into()]).await?;
    let mut ids: Vec<&str> = steps.iter().map(|s| s.2.as_str()).collect();
    ids.extend(steps.iter().filter_map(|s| s.4.as_deref()));
    let names = names(db, ids).await?;
    let history = steps
        .iter()
        .map(|(id, action, actor, note, assignee, at)| HistoryEntry {
            id: id.clone(),
            action: action.clone(),
            actor: names.actor(actor),
            note: note.clone(),
            assignee: assignee.as_deref().map(|a| names.actor(a)),
            at: iso_micros(*at),
        })
        .collect();
    let alarm = views(db, vec![row]).await?.remove(0);
    Ok(Some(AlarmDetail { alarm, history }))
}

/// How many alarms are in each status: on one device, or in the network
/// (kept as counters, so the shell's poll never scans).
pub async fn counts(db: &Db, device_id: Option<&str>) -> Result<AlarmCounts, StorageError> {
    let rows: Vec<(String, i64)> = match device_id {
        Some(device) => {
            let sql = "SELECT status, COUNT(*) FROM alarms WHERE device_id = $1 GROUP BY status";
            query::fetch_all(db, sql.to_owned(), vec![device.into()]).await?
        }
        None => query::fetch_all(db, "SELECT status, alarms FROM alarm_counts".to_owned(), Vec::new()).await?,
    };
    let mut counts = AlarmCounts::default();
    for (status, n) in rows {
        match status.parse() {
            Ok(Status::Active) => counts.active = n,
            Ok(Status::Acknowledged) => counts.acknowledged = n,
            Ok(Status::Cleared) => counts.cleared = n,
            Ok(Status::Closed) => counts.closed = n,
            Err(_) => return Err(StorageError::Corrupt { field: "status", value: status }),
        }
    }
    Ok(counts)
}

/// The active admins and operators, by username.
pub async fn assignable(db: &Db) -> Result<Vec<Assignable>, StorageError> {
    let sql = "SELECT user_id, username, role FROM ingest_users WHERE active = TRUE AND role IN ('admin', 'operator') \
               ORDER BY username";
    query::fetch_all(db, sql.to_owned(), Vec::new()).await
}

/// Whether `user_id` is an active admin or operator.
pub async fn is_assignable(db: &Db, user_id: &str) -> Result<bool, StorageError> {
    let sql =
        "SELECT COUNT(*) FROM ingest_users WHERE user_id = $1 AND active = TRUE AND role IN ('admin', 'operator')";
    Ok(query::fetch_count(db, sql.to_owned(), vec![user_id.into()]).await? > 0)
}

/// Who `id` is (a user, a gateway or w-meter), named.
pub async fn actor(db: &Db, id: &str) -> Result<Actor, StorageError> {
    Ok(names(db, vec![id]).await?.actor(id))
}

/// Usernames by user id.
struct Names(HashMap<String, String>);

impl Names {
    fn actor(&self, id: &str) -> Actor {
        let name = match (self.0.get(id), id.split_once(':')) {
            (Some(username), _) => username.clone(),
            (None, Some(("gateway", serial))) => format!("GTW-{serial}"),
            (None, Some(("service", _))) => "w-meter".to_owned(),
            (None, _) => id.to_owned(),
        };
        Actor { id: id.to_owned(), name }
    }
}

async fn names(db: &Db, ids: Vec<&str>) -> Result<Names, StorageError> {
    let mut ids: Vec<&str> = ids.into_iter().filter(|id| !id.contains(':')).collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Ok(Names(HashMap::new()));
    }
    let mut conditions = Conditions::default();
    let placeholders: Vec<String> = ids.iter().map(|id| conditions.bind((*id).into())).collect();
    let sql = format!("SELECT user_id, username FROM ingest_users WHERE user_id IN ({})", placeholders.join(", "));
    let rows: Vec<(String, String)> = query::fetch_all(db, sql, conditions.into_binds()).await?;
    Ok(Names(rows.into_iter().collect()))
}

async fn views(db: &Db, rows: Vec<Row>) -> Result<Vec<AlarmView>, StorageError> {
    let ids = rows.iter().flat_map(|r| {
        [
            Some(&r.raised_by),
            r.assignee.as_ref(),
            r.acknowledged_by.as_ref(),
            r.cleared_by.as_ref(),
            r.closed_by.as_ref(),
        ]
        .into_iter()
        .flatten()
        .map(String::as_str)
    });
    let names = names(db, ids.collect()).await?;
    let actor = |id: &Option<String>| id.as_deref().map(|id| names.actor(id));
    Ok(rows
        .into_iter()
        .map(|r| AlarmView {
            details: serde_json::from_str(&r.details).unwrap_or_else(|_| serde_json::json!({})),
            raised_by: names.actor(&r.raised_by),
            assignee: actor(&r.assignee),
            acknowledged_by: actor(&r.acknowledged_by),
            cleared_by: actor(&r.cleared_by),
            closed_by: actor(&r.closed_by),
            raised_at: iso_micros(r.raised_at),
            acknowledged_at: r.acknowledged_at.map(iso_micros),
            cleared_at: r.cleared_at.map(iso_micros),
            closed_at: r.closed_at.map(iso_micros),
            updated_at: iso_micros(r.updated_at),
            id: r.alarm_id,
            device_name: r.device_name.unwrap_or_else(|| r.device_id.clone()),
            device_id: r.device_id,
            device_kind: r.device_kind,
            alarm_type: r.alarm_type,
            severity: r.severity,
            status: r.status,
        })
        .collect())
}
