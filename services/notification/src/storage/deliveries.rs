//! The deliveries outbox and its log: each message a rule sends, the alarms
//! it groups, and every attempt to send it.

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};
use wm_storage::{Db, StorageError, Tx, execute, with_pool, with_tx};

use crate::domain::{alarm_rule::AlarmRule, delivery::Status};

/// An alarm as a message tells it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AlarmSummary {
    pub alarm_id: String,
    pub device_id: String,
    pub device_name: String,
    /// `meter` or `gateway`.
    pub device_kind: String,
    #[serde(rename = "type")]
    pub alarm_type: String,
    pub severity: String,
    /// RFC 3339.
    pub raised_at: String,
    /// What raised it (the gateway, a detector's evidence), as JSON.
    pub details: serde_json::Value,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivery {
    pub id: String,
    pub rule_id: String,
    pub test: bool,
    pub status: Status,
    pub alarms: Vec<AlarmSummary>,
    pub created_at: DateTime<Utc>,
    /// When to try next, while pending.
    pub due_at: DateTime<Utc>,
    pub attempts: u32,
    pub reason: Option<String>,
}

/// One try at sending a delivery.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    pub at: DateTime<Utc>,
    pub ok: bool,
    /// The receiver's HTTP status or SMTP reply code, if it answered.
    pub status_code: Option<u16>,
    pub latency_ms: u64,
    pub error: Option<String>,
}

/// What an attempt leaves the delivery as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum After {
    Delivered,
    RetryAt(DateTime<Utc>),
    Abandoned(String),
}

struct Row {
    id: String,
    rule_id: String,
    test: bool,
    status: String,
    alarms_json: String,
    created_at: i64,
    due_at: i64,
    attempts: i64,
    reason: Option<String>,
}
wm_storage::from_row!(Row { id, rule_id, test, status, alarms_json, created_at, due_at, attempts, reason });

fn time(field: &'static str, micros: i64) -> Result<DateTime<Utc>, StorageError> {
    DateTime::from_timestamp_micros(micros).ok_or_else(|| StorageError::Corrupt { field, value: micros.to_string() })
}

impl TryFrom<Row> for Delivery {
    type Error = StorageError;

    fn try_from(row: Row) -> Result<Self, StorageError> {
        let corrupt = |field, value: String| StorageError::Corrupt { field, value };
        Ok(Delivery {
            status: Status::parse(&row.status).ok_or_else(|| corrupt("status", row.status.clone()))?,
            alarms: serde_json::from_str(&row.alarms_json)
                .map_err(|_| corrupt("alarms_json", row.alarms_json.clone()))?,
            created_at: time("created_at", row.created_at)?,
            due_at: time("due_at", row.due_at)?,
            attempts: u32::try_from(row.attempts).unwrap_or(u32::MAX),
            id: row.id,
            rule_id: row.rule_id,
            test: row.test,
            reason: row.reason,
        })
    }
}

const SELECT: &str =
    "SELECT id, rule_id, test, status, alarms_json, created_at, due_at, attempts, reason FROM deliveries";

/// Puts `alarm` in `rule`'s open group (a pending delivery whose window is
/// still open at `now`), or opens one that is due when its window closes.
/// An alarm the rule has taken already changes nothing: returns false.
pub async fn add(
    tx: &mut Tx,
    rule: &AlarmRule,
    alarm: &AlarmSummary,
    now: DateTime<Utc>,
) -> Result<bool, StorageError> {
    let sql = format!(
        "{SELECT} WHERE rule_id = $1 AND NOT test AND status = 'pending' AND attempts = 0 AND group_until > $2 \
         ORDER BY created_at DESC LIMIT 1{}",
        tx.lock_rows()
    );
    let open: Option<Row> = with_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(&rule.id).bind(now.timestamp_micros()).fetch_optional(&mut **conn).await)?;
    let delivery_id = match open {
        Some(row) => row.id,
        None => uuid::Uuid::now_v7().simple().to_string(),
    };
    let taken = execute!(
        tx,
        "INSERT INTO delivery_alarms (rule_id, alarm_id, delivery_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        &rule.id,
        &alarm.alarm_id,
        &delivery_id
    )?;
    if taken == 0 {
        return Ok(false);
    }
    let sql = "SELECT alarms_json FROM deliveries WHERE id = $1";
    let grouped: Option<String> =
        with_tx!(tx, conn => sqlx::query_scalar(sql).bind(&delivery_id).fetch_optional(&mut **conn).await)?;
    match grouped {
        Some(grouped) => {
            let mut alarms: Vec<AlarmSummary> = serde_json::from_str(&grouped)
                .map_err(|_| StorageError::Corrupt { field: "alarms_json", value: grouped.clone() })?;
            alarms.push(alarm.clone());
            let count = i64::try_from(alarms.len()).unwrap_or(i64::MAX);
            let sql = "UPDATE deliveries SET alarms_json = $1, alarm_count = $2 WHERE id = $3";
            execute!(tx, sql, serde_json::to_string(&alarms).unwrap_or_default(), count, &delivery_id)?;
        }
        None => {
            let closes = now + TimeDelta::seconds(i64::from(rule.group_window_secs));
            let alarms = serde_json::to_string(std::slice::from_ref(alarm)).unwrap_or_default();
            insert(tx, (&delivery_id, &rule.id, false), &alarms, now, closes).await?;
        }
    }
    Ok(true)
}

/// Queues a test message of `rule_id`, due at once; returns its id.
pub async fn test(tx: &mut Tx, rule_id: &str, now: DateTime<Utc>) -> Result<String, StorageError> {
    let id = uuid::Uuid::now_v7().simple().to_string();
    insert(tx, (&id, rule_id, true), "[]", now, now).await?;
    Ok(id)
}

async fn insert(
    tx: &mut Tx,
    (id, rule_id, test): (&str, &str, bool),
    alarms_json: &str,
    now: DateTime<Utc>,
    due: DateTime<Utc>,
) -> Result<(), StorageError> {
    let count: i64 = if test { 0 } else { 1 };
    execute!(
        tx,
        "INSERT INTO deliveries (id, rule_id, test, status, alarms_json, alarm_count, created_at, group_until, due_at) \
         VALUES ($1, $2, $3, 'pending', $4, $5, $6, $7, $7)",
        id,
        rule_id,
        test,
        alarms_json,
        count,
        now.timestamp_micros(),
        due.timestamp_micros()
    )?;
    Ok(())
}

/// Takes up to `max` due deliveries for `lease`: no other sender takes them
/// until it ends (a sender that dies mid-way leaves them to the next).
pub async fn claim(db: &Db, now: DateTime<Utc>, lease: TimeDelta, max: i64) -> Result<Vec<Delivery>, StorageError> {
    let mut owned = db.begin_write().await?;
    let tx = &mut owned;
    let skip = if tx.lock_rows().is_empty() { "" } else { " SKIP LOCKED" };
    let sql = format!(
        "{SELECT} WHERE status = 'pending' AND due_at <= $1 AND (lease_until IS NULL OR lease_until < $1) \
         ORDER BY due_at LIMIT $2{}{skip}",
        tx.lock_rows()
    );
    let rows: Vec<Row> = with_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(now.timestamp_micros()).bind(max).fetch_all(&mut **conn).await)?;
    let until = (now + lease).timestamp_micros();
    for row in &rows {
        execute!(tx, "UPDATE deliveries SET lease_until = $1 WHERE id = $2", until, &row.id)?;
    }
    owned.commit().await?;
    rows.into_iter().map(Delivery::try_from).collect()
}

/// Logs `attempt` of the delivery `id`, and what follows it.
pub async fn attempted(db: &Db, id: &str, attempt: &Attempt, after: &After) -> Result<(), StorageError> {
    let mut owned = db.begin_write().await?;
    let tx = &mut owned;
    let sql = "SELECT attempts FROM deliveries WHERE id = $1";
    let made: Option<i64> = with_tx!(tx, conn => sqlx::query_scalar(sql).bind(id).fetch_optional(&mut **conn).await)?;
    let Some(made) = made else { return Ok(()) }; // its rule was deleted meanwhile
    execute!(
        tx,
        "INSERT INTO delivery_attempts (delivery_id, n, at, outcome, status_code, latency_ms, error) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
        id,
        made + 1,
        attempt.at.timestamp_micros(),
        if attempt.ok { "ok" } else { "failed" },
        attempt.status_code.map(i64::from),
        i64::try_from(attempt.latency_ms).unwrap_or(i64::MAX),
        attempt.error.as_deref()
    )?;
    let (status, due, reason) = match after {
        After::Delivered => (Status::Delivered, attempt.at, None),
        After::RetryAt(at) => (Status::Pending, *at, None),
        After::Abandoned(reason) => (Status::Abandoned, attempt.at, Some(reason.as_str())),
    };
    execute!(
        tx,
        "UPDATE deliveries SET attempts = attempts + 1, status = $1, due_at = $2, reason = $3, lease_until = NULL \
         WHERE id = $4",
        status.as_str(),
        due.timestamp_micros(),
        reason,
        id
    )?;
    owned.commit().await?;
    Ok(())
}

/// When the delivery `id` was first tried.
pub async fn first_attempt(db: &Db, id: &str) -> Result<Option<DateTime<Utc>>, StorageError> {
    let sql = "SELECT MIN(at) FROM delivery_attempts WHERE delivery_id = $1";
    let at: Option<i64> = with_pool!(db, pool => sqlx::query_scalar(sql).bind(id).fetch_one(pool).await)?;
    at.map(|at| time("at", at)).transpose()
}

/// The latest `max` deliveries of `rule_id`, newest first, with their
/// attempts in order.
pub async fn of_rule(db: &Db, rule_id: &str, max: i64) -> Result<Vec<(Delivery, Vec<Attempt>)>, StorageError> {
    let sql = format!("{SELECT} WHERE rule_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2");
    let rows: Vec<Row> =
        with_pool!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(rule_id).bind(max).fetch_all(pool).await)?;
    let sql = "SELECT a.delivery_id, a.at, a.outcome, a.status_code, a.latency_ms, a.error FROM delivery_attempts a \
               WHERE a.delivery_id IN (SELECT id FROM deliveries WHERE rule_id = $1 \
               ORDER BY created_at DESC, id DESC LIMIT $2) ORDER BY a.delivery_id, a.n";
    type AttemptRow = (String, i64, String, Option<i64>, i64, Option<String>);
    let attempts: Vec<AttemptRow> =
        with_pool!(db, pool => sqlx::query_as(sql).bind(rule_id).bind(max).fetch_all(pool).await)?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let delivery = Delivery::try_from(row)?;
        let mut tried = Vec::new();
        for (_, at, outcome, code, latency, error) in attempts.iter().filter(|a| a.0 == delivery.id) {
            tried.push(Attempt {
                at: time("at", *at)?,
                ok: outcome == "ok",
                status_code: code.and_then(|c| u16::try_from(c).ok()),
                latency_ms: u64::try_from(*latency).unwrap_or_default(),
                error: error.clone(),
            });
        }
        out.push((delivery, tried));
    }
    Ok(out)
}
