//! The alarm_rules table, and the gateway that last relayed each meter
//! (for rules on a gateway's meters).

use std::collections::HashMap;

use chrono::DateTime;
use wm_storage::{
    Db, StorageError, Tx,
    bulk::{self, Rows},
    execute, with_pool, with_tx,
};

use crate::domain::alarm_rule::AlarmRule;

struct Row {
    id: String,
    name: String,
    enabled: bool,
    match_json: String,
    channel_json: String,
    group_window_secs: i64,
    created_at: i64,
    updated_at: i64,
    has_secret: bool,
}
wm_storage::from_row!(Row {
    id,
    name,
    enabled,
    match_json,
    channel_json,
    group_window_secs,
    created_at,
    updated_at,
    has_secret
});

impl TryFrom<Row> for (AlarmRule, bool) {
    type Error = StorageError;

    fn try_from(row: Row) -> Result<Self, StorageError> {
        let corrupt = |field, value: String| StorageError::Corrupt { field, value };
        let time = |field, micros: i64| {
            DateTime::from_timestamp_micros(micros).ok_or_else(|| corrupt(field, micros.to_string()))
        };
        let rule = AlarmRule {
            matcher: serde_json::from_str(&row.match_json)
                .map_err(|_| corrupt("match_json", row.match_json.clone()))?,
            channel: serde_json::from_str(&row.channel_json)
                .map_err(|_| corrupt("channel_json", row.channel_json.clone()))?,
            group_window_secs: u32::try_from(row.group_window_secs)
                .map_err(|_| corrupt("group_window_secs", row.group_window_secs.to_string()))?,
            created_at: time("created_at", row.created_at)?,
            updated_at: time("updated_at", row.updated_at)?,
            id: row.id,
            name: row.name,
            enabled: row.enabled,
        };
        Ok((rule, row.has_secret))
    }
}

const SELECT: &str = "SELECT id, name, enabled, match_json, channel_json, group_window_secs, created_at, updated_at, \
                      secret IS NOT NULL AS has_secret FROM alarm_rules";

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Every rule, by name, and whether each has a webhook secret.
pub async fn list(db: &Db) -> Result<Vec<(AlarmRule, bool)>, StorageError> {
    let sql = format!("{SELECT} ORDER BY lower(name), id");
    let rows: Vec<Row> = with_pool!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(pool).await)?;
    rows.into_iter().map(TryFrom::try_from).collect()
}

/// The enabled rules, as the matcher reads them in its transaction.
pub async fn enabled(tx: &mut Tx) -> Result<Vec<AlarmRule>, StorageError> {
    let sql = format!("{SELECT} WHERE enabled ORDER BY id");
    let rows: Vec<Row> = with_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(&mut **conn).await)?;
    rows.into_iter().map(|row| <(AlarmRule, bool)>::try_from(row).map(|(rule, _)| rule)).collect()
}

/// The rule `id`, and whether it has a webhook secret.
pub async fn find(db: &Db, id: &str) -> Result<Option<(AlarmRule, bool)>, StorageError> {
    let sql = format!("{SELECT} WHERE id = $1");
    let row: Option<Row> =
        with_pool!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(pool).await)?;
    row.map(TryFrom::try_from).transpose()
}

/// The webhook secret of the rule `id`.
pub async fn secret(db: &Db, id: &str) -> Result<Option<String>, StorageError> {
    let sql = "SELECT secret FROM alarm_rules WHERE id = $1";
    let secret: Option<Option<String>> =
        with_pool!(db, pool => sqlx::query_scalar(sql).bind(id).fetch_optional(pool).await)?;
    Ok(secret.flatten())
}

/// Stores `rule`, new or changed; a `secret` of `None` keeps the stored one
/// (an email rule has none: it is cleared).
pub async fn save(tx: &mut Tx, rule: &AlarmRule, secret: Option<&str>) -> Result<(), StorageError> {
    let webhook = matches!(rule.channel, crate::domain::alarm_rule::Channel::Webhook { .. });
    execute!(
        tx,
        "INSERT INTO alarm_rules (id, name, enabled, match_json, channel_json, secret, group_window_secs, created_at, \
         updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, enabled = excluded.enabled, \
         match_json = excluded.match_json, channel_json = excluded.channel_json, \
         secret = CASE WHEN $10 THEN COALESCE(excluded.secret, alarm_rules.secret) ELSE NULL END, \
         group_window_secs = excluded.group_window_secs, updated_at = excluded.updated_at",
        &rule.id,
        rule.name.trim(),
        rule.enabled,
        json(&rule.matcher),
        json(&rule.channel),
        secret,
        i64::from(rule.group_window_secs),
        rule.created_at.timestamp_micros(),
        rule.updated_at.timestamp_micros(),
        webhook
    )?;
    Ok(())
}

/// Deletes the rule `id` and its deliveries; whether it existed.
pub async fn delete(tx: &mut Tx, id: &str) -> Result<bool, StorageError> {
    execute!(
        tx,
        "DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT id FROM deliveries WHERE rule_id = $1)",
        id
    )?;
    execute!(tx, "DELETE FROM deliveries WHERE rule_id = $1", id)?;
    execute!(tx, "DELETE FROM delivery_alarms WHERE rule_id = $1", id)?;
    Ok(execute!(tx, "DELETE FROM alarm_rules WHERE id = $1", id)? > 0)
}

/// Keeps the gateway that relayed each meter last, in one statement.
pub async fn relayed(tx: &mut Tx, relays: &HashMap<String, String>) -> Result<(), StorageError> {
    if relays.is_empty() {
        return Ok(());
    }
    let mut rows = Rows::new(2);
    relays.iter().for_each(|(meter, gateway)| rows.push([meter.into(), gateway.into()]));
    let tail = " ON CONFLICT (meter_id) DO UPDATE SET gateway_id = excluded.gateway_id \
                WHERE notification_relays.gateway_id <> excluded.gateway_id";
    bulk::execute(tx, "INSERT INTO notification_relays (meter_id, gateway_id)", tail, rows).await?;
    Ok(())
}

/// The gateway that last relayed `meter_id`.
pub async fn relay_of(tx: &mut Tx, meter_id: &str) -> Result<Option<String>, StorageError> {
    let sql = "SELECT gateway_id FROM notification_relays WHERE meter_id = $1";
    Ok(with_tx!(tx, conn => sqlx::query_scalar(sql).bind(meter_id).fetch_optional(&mut **conn).await)?)
}
