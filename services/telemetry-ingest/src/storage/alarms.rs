//! Alarms as their events leave them (`domain::alarm`): the row of each
//! alarm, its history, and the counts by status. Every write is keyed by
//! the alarm or the event id and a status only moves as `domain::alarm`
//! allows, so a redelivery or a replay changes nothing.

use chrono::DateTime;
use wm_domain::DeviceKind;
use wm_proto::{Envelope, Payload};
use wm_storage::{StorageError, Tx, execute, with_tx};

use crate::domain::alarm::{self, Alarm, Severity, Status};

/// The columns [`Row`] reads.
const COLUMNS: &str = "alarm_id, device_id, device_kind, alarm_type, severity, status, assignee, raised_at";

struct Row {
    alarm_id: String,
    device_id: String,
    device_kind: String,
    alarm_type: String,
    severity: String,
    status: String,
    assignee: Option<String>,
    raised_at: i64,
}
wm_storage::from_row!(Row { alarm_id, device_id, device_kind, alarm_type, severity, status, assignee, raised_at });

impl TryFrom<Row> for Alarm {
    type Error = StorageError;

    fn try_from(row: Row) -> Result<Self, StorageError> {
        let corrupt = |field, value: &str| StorageError::Corrupt { field, value: value.to_owned() };
        Ok(Alarm {
            device_kind: kind(&row.device_kind).ok_or_else(|| corrupt("device_kind", &row.device_kind))?,
            severity: row.severity.parse().map_err(|_| corrupt("severity", &row.severity))?,
            status: row.status.parse().map_err(|_| corrupt("status", &row.status))?,
            raised_at: DateTime::from_timestamp_micros(row.raised_at)
                .ok_or_else(|| corrupt("raised_at", &row.raised_at.to_string()))?,
            alarm_id: row.alarm_id,
            device_id: row.device_id,
            alarm_type: row.alarm_type,
            assignee: row.assignee,
        })
    }
}

/// The word a device kind is stored as.
pub(crate) fn kind_word(kind: DeviceKind) -> &'static str {
    match kind {
        DeviceKind::Meter => "meter",
        DeviceKind::Gateway => "gateway",
    }
}

pub(crate) fn kind(word: &str) -> Option<DeviceKind> {
    [DeviceKind::Meter, DeviceKind::Gateway].into_iter().find(|k| kind_word(*k) == word)
}

/// The alarm of `alarm_type` open (active or acknowledged) on the device.
pub async fn open(tx: &mut Tx, device_id: &str, alarm_type: &str) -> Result<Option<Alarm>, StorageError> {
    let sql = format!(
        "SELECT {COLUMNS} FROM alarms WHERE device_id = $1 AND alarm_type = $2 AND status IN ('active', 'acknowledged')"
    );
    let row: Option<Row> = with_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(device_id).bind(alarm_type).fetch_optional(&mut **conn).await)?;
    row.map(Alarm::try_from).transpose()
}

/// Who raised the alarm: a user id, `gateway:<serial>` or `service:<name>`.
pub async fn raised_by(tx: &mut Tx, alarm_id: &str) -> Result<Option<String>, StorageError> {
    let row: Option<(String,)> = with_tx!(tx, conn => sqlx::query_as("SELECT raised_by FROM alarms WHERE alarm_id = $1")
        .bind(alarm_id).fetch_optional(&mut **conn).await)?;
    Ok(row.map(|(by,)| by))
}

/// The alarm, to act on.
pub async fn find(tx: &mut Tx, alarm_id: &str) -> Result<Option<Alarm>, StorageError> {
    let sql = format!("SELECT {COLUMNS} FROM alarms WHERE alarm_id = $1");
    let row: Option<Row> = with_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(alarm_id).fetch_optional(&mut **conn).await)?;
    row.map(Alarm::try_from).transpose()
}

/// Applies an alarm event: the alarm's row, its history and the counts.
pub async fn persist(tx: &mut Tx, envelope: &Envelope) -> Result<(), StorageError> {
    let (Some(payload), Some(at)) = (&envelope.payload, envelope.occurred_at_utc()) else { return Ok(()) };
    let (at, actor) = (at.timestamp_micros(), envelope.actor.as_str());
    let (alarm_id, note, assignee) = match payload {
        Payload::AlarmRaised(e) => {
            let sql = "INSERT INTO alarms (alarm_id, device_id, device_kind, alarm_type, severity, status, details, \
                       raised_by, raised_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) \
                       ON CONFLICT DO NOTHING";
            let kind = kind_word(alarm::device_kind(e.device_kind()));
            let severity = Severity::of(e.severity()).as_str();
            let (id, device, kind_, type_) = (&e.alarm_id, &e.device_id, kind, &e.alarm_type);
            let raised = execute!(tx, sql, id, device, kind_, type_, severity, "active", &e.details_json, actor, at)?;
            if raised == 0 {
                // Known already, or one of its type is open on the device.
                return Ok(());
            }
            count(tx, None, Status::Active).await?;
            (&e.alarm_id, "", None)
        }
        Payload::AlarmAcknowledged(e) => {
            moved(tx, &e.alarm_id, &[Status::Active], Status::Acknowledged, ("acknowledged", actor, at)).await?;
            (&e.alarm_id, e.note.as_str(), None)
        }
        Payload::AlarmCleared(e) => {
            let open = [Status::Active, Status::Acknowledged];
            moved(tx, &e.alarm_id, &open, Status::Cleared, ("cleared", actor, at)).await?;
            (&e.alarm_id, e.note.as_str(), None)
        }
        Payload::AlarmClosed(e) => {
            moved(tx, &e.alarm_id, &[Status::Cleared], Status::Closed, ("closed", actor, at)).await?;
            (&e.alarm_id, e.note.as_str(), None)
        }
        Payload::AlarmAssigned(e) => {
            let assignee = (!e.assignee.is_empty()).then_some(e.assignee.as_str());
            execute!(
                tx,
                "UPDATE alarms SET assignee = $1, updated_at = $2 WHERE alarm_id = $3",
                assignee,
                at,
                &e.alarm_id
            )?;
            (&e.alarm_id, "", Some(e.assignee.as_str()))
        }
        Payload::AlarmCommented(e) => {
            execute!(tx, "UPDATE alarms SET updated_at = $1 WHERE alarm_id = $2", at, &e.alarm_id)?;
            (&e.alarm_id, e.text.as_str(), None)
        }
        _ => return Ok(()),
    };
    let sql = "INSERT INTO alarm_history (event_id, alarm_id, action, actor, note, assignee, occurred_at) \
               VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING";
    let assignee = assignee.filter(|a| !a.is_empty());
    execute!(tx, sql, &envelope.event_id, alarm_id, action(payload), actor, note, assignee, at)?;
    Ok(())
}

/// The word the history names an event's action with.
fn action(payload: &Payload) -> &'static str {
    match payload {
        Payload::AlarmRaised(_) => "raised",
        Payload::AlarmAcknowledged(_) => "acknowledged",
        Payload::AlarmAssigned(_) => "assigned",
        Payload::AlarmCommented(_) => "commented",
        Payload::AlarmCleared(_) => "cleared",
        _ => "closed",
    }
}

/// Moves the alarm to `to` if it is in one of `from`, stamping who and
/// when in the step's `{column}_by` and `{column}_at`, and keeps the counts.
async fn moved(
    tx: &mut Tx,
    alarm_id: &str,
    from: &[Status],
    to: Status,
    (column, actor, at): (&str, &str, i64),
) -> Result<(), StorageError> {
    for status in from {
        let sql = format!(
            "UPDATE alarms SET status = $1, {column}_by = $2, {column}_at = $3, updated_at = $3 \
             WHERE alarm_id = $4 AND status = $5"
        );
        let changed = execute!(tx, sqlx::AssertSqlSafe(sql), to.as_str(), actor, at, alarm_id, status.as_str())?;
        if changed > 0 {
            return count(tx, Some(*status), to).await;
        }
    }
    Ok(())
}

/// One alarm moved from `from` (or was raised) to `to`.
async fn count(tx: &mut Tx, from: Option<Status>, to: Status) -> Result<(), StorageError> {
    let sql = "INSERT INTO alarm_counts (status, alarms) VALUES ($1, 1) \
               ON CONFLICT (status) DO UPDATE SET alarms = alarm_counts.alarms + 1";
    execute!(tx, sql, to.as_str())?;
    if let Some(from) = from {
        execute!(tx, "UPDATE alarm_counts SET alarms = alarms - 1 WHERE status = $1", from.as_str())?;
    }
    Ok(())
}

/// Forgets every alarm, before a rebuild.
pub async fn reset(tx: &mut Tx) -> Result<(), StorageError> {
    for table in ["alarms", "alarm_history", "alarm_counts"] {
        execute!(tx, sqlx::AssertSqlSafe(format!("DELETE FROM {table}")))?;
    }
    Ok(())
}
