//! Valve commands: issued by a confirmed shutdown (or a resend) for the
//! gateway that last heard the meter, sent, and settled by the gateway's
//! ack or the timeout sweep, each step with its time. A status moves only
//! as `domain::valve` allows.

use chrono::DateTime;
use serde::Serialize;
use utoipa::ToSchema;
use wm_domain::iso_micros;
use wm_proto::{Envelope, Payload};
use wm_storage::{
    Db, StorageError, Tx, execute,
    query::{self, Bind},
    with_tx,
};

use crate::domain::valve::{Status, ValveCommand};

const COLUMNS: &str =
    "c.command_id, c.meter_id, c.gateway_serial, c.meter_ble_address, c.request_id, c.resend_of, c.status, c.issued_at";

struct Row {
    command_id: String,
    meter_id: String,
    gateway_serial: String,
    meter_ble_address: String,
    request_id: Option<String>,
    resend_of: Option<String>,
    status: String,
    issued_at: i64,
}
wm_storage::from_row!(Row {
    command_id,
    meter_id,
    gateway_serial,
    meter_ble_address,
    request_id,
    resend_of,
    status,
    issued_at
});

impl TryFrom<Row> for ValveCommand {
    type Error = StorageError;

    fn try_from(row: Row) -> Result<Self, StorageError> {
        let corrupt = |field, value: String| StorageError::Corrupt { field, value };
        Ok(ValveCommand {
            status: row.status.parse().map_err(|_| corrupt("status", row.status.clone()))?,
            issued_at: DateTime::from_timestamp_micros(row.issued_at)
                .ok_or_else(|| corrupt("issued_at", row.issued_at.to_string()))?,
            command_id: row.command_id,
            meter_id: row.meter_id,
            gateway_serial: row.gateway_serial,
            meter_ble_address: row.meter_ble_address,
            request_id: row.request_id,
            resend_of: row.resend_of,
        })
    }
}

/// The serial of the gateway that last heard the meter: the newest of its
/// activity rows that the index by meter holds and of its readings, whose
/// own activity rows that index leaves out (telemetry migration 13).
pub async fn last_gateway(tx: &mut Tx, meter_id: &str) -> Result<Option<String>, StorageError> {
    let sql = "SELECT serial_number FROM (\
               SELECT * FROM (SELECT g.serial_number, a.occurred_at FROM gateway_activity a \
               JOIN ingest_gateways g ON g.id = a.gateway_id WHERE NOT a.via_reading AND a.meter_id = $1 \
               ORDER BY a.occurred_at DESC LIMIT 1) unlinked \
               UNION ALL \
               SELECT * FROM (SELECT g.serial_number, r.occurred_at FROM readings r \
               JOIN ingest_gateways g ON g.id = r.gateway_id WHERE r.meter_id = $1 \
               ORDER BY r.occurred_at DESC LIMIT 1) reading\
               ) heard ORDER BY occurred_at DESC LIMIT 1";
    Ok(with_tx!(tx, conn => sqlx::query_scalar(sql).bind(meter_id).fetch_optional(&mut **conn).await)?)
}

/// The meter a command is for.
pub async fn meter_of(tx: &mut Tx, command_id: &str) -> Result<Option<String>, StorageError> {
    let sql = "SELECT meter_id FROM valve_commands WHERE command_id = $1";
    Ok(with_tx!(tx, conn => sqlx::query_scalar(sql).bind(command_id).fetch_optional(&mut **conn).await)?)
}

/// The command, to act on.
pub async fn find(tx: &mut Tx, command_id: &str) -> Result<Option<ValveCommand>, StorageError> {
    let sql = format!("SELECT {COLUMNS} FROM valve_commands c WHERE c.command_id = $1");
    let row: Option<Row> = with_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(command_id).fetch_optional(&mut **conn).await)?;
    row.map(ValveCommand::try_from).transpose()
}

/// Up to `max` pending commands, oldest first, but for gateways whose MQTT
/// session is down: theirs wait, so that a gateway without a persistent
/// session does not miss them (docs/mqtt.md, `cmd`).
pub async fn pending(db: &Db, max: i64) -> Result<Vec<ValveCommand>, StorageError> {
    let sql = format!(
        "SELECT {COLUMNS} FROM valve_commands c WHERE c.status = $1 AND NOT EXISTS (\
           SELECT 1 FROM ingest_gateways g JOIN gateway_sessions s ON s.gateway_id = g.id \
           WHERE g.serial_number = c.gateway_serial AND NOT s.online) \
         ORDER BY c.issued_at LIMIT $2"
    );
    let rows: Vec<Row> = query::fetch_all(db, sql, vec![Status::Pending.as_str().into(), Bind::Int(max)]).await?;
    rows.into_iter().map(ValveCommand::try_from).collect()
}

/// Up to `max` commands not settled and issued before `before` (µs),
/// oldest first: those the timeout sweep settles.
pub async fn overdue(db: &Db, before: i64, max: i64) -> Result<Vec<ValveCommand>, StorageError> {
    let sql = format!(
        "SELECT {COLUMNS} FROM valve_commands c WHERE c.status IN ($1, $2) AND c.issued_at < $3 \
         ORDER BY c.issued_at LIMIT $4"
    );
    let binds = vec![Status::Pending.as_str().into(), Status::Sent.as_str().into(), Bind::Int(before), Bind::Int(max)];
    let rows: Vec<Row> = query::fetch_all(db, sql, binds).await?;
    rows.into_iter().map(ValveCommand::try_from).collect()
}

/// Applies a command event that happened at `at` (µs); keyed by command id,
/// and a status only moves forward. Returns whether the command changed:
/// of two replicas timing out one command, one changes it.
pub async fn persist(tx: &mut Tx, envelope: &Envelope, at: i64) -> Result<bool, StorageError> {
    let changed = match &envelope.payload {
        Some(Payload::ValveCommandIssued(c)) => {
            let sql = "INSERT INTO valve_commands (command_id, meter_id, gateway_serial, meter_ble_address, \
                       request_id, resend_of, issued_by, status, issued_at, updated_at) \
                       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) ON CONFLICT DO NOTHING";
            let (id, meter, gateway, ble) = (&c.command_id, &c.meter_id, &c.gateway_serial, &c.meter_ble_address);
            let (request, resend, by) = (&c.request_id, &c.resend_of, &envelope.actor);
            execute!(tx, sql, id, meter, gateway, ble, request, resend, by, Status::Pending.as_str(), at)?
        }
        Some(Payload::ValveCommandSent(c)) => move_to(tx, &c.command_id, Status::Sent, None, at).await?,
        Some(Payload::ValveCommandTimedOut(c)) => move_to(tx, &c.command_id, Status::TimedOut, None, at).await?,
        Some(Payload::CommandAcknowledged(a)) => {
            move_to(tx, &a.command_id, Status::acknowledged(a.ok), Some(&a.detail), at).await?
        }
        _ => 0,
    };
    Ok(changed > 0)
}

/// Moves the command to `next` if it is in a status `next` is reached
/// from, stamping the step's time.
async fn move_to(
    tx: &mut Tx,
    command_id: &str,
    next: Status,
    detail: Option<&str>,
    at: i64,
) -> Result<u64, StorageError> {
    let [from_a, from_b] = match next.reached_from() {
        [only] => [*only, *only],
        [a, b] => [*a, *b],
        _ => return Ok(0),
    };
    let step = if next == Status::Sent { "sent_at" } else { "settled_at" };
    let sql = format!(
        "UPDATE valve_commands SET status = $1, detail = COALESCE($2, detail), updated_at = $3, {step} = $3 \
         WHERE command_id = $4 AND status IN ($5, $6)"
    );
    execute!(tx, sqlx::AssertSqlSafe(sql), next.as_str(), detail, at, command_id, from_a.as_str(), from_b.as_str())
}

/// A valve command and the time of each of its steps.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TimelineRow {
    command_id: String,
    request_id: Option<String>,
    /// The command this one sent again.
    resend_of: Option<String>,
    /// `pending`, `sent`, `acked`, `failed` or `timed-out`.
    #[schema(example = "acked")]
    status: String,
    /// The gateway's explanation of a failure.
    detail: String,
    /// The serial of the gateway that relays it.
    gateway_serial: String,
    /// Who confirmed the shutdown (or resent the command): a user id.
    issued_by: String,
    #[serde(skip)]
    issued_at: i64,
    #[serde(skip)]
    sent_at: Option<i64>,
    #[serde(skip)]
    settled_at: Option<i64>,
}
wm_storage::from_row!(TimelineRow {
    command_id,
    request_id,
    resend_of,
    status,
    detail,
    gateway_serial,
    issued_by,
    issued_at,
    sent_at,
    settled_at
});

/// A command of a meter's timeline, with ISO 8601 times.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Timeline {
    #[serde(flatten)]
    pub command: TimelineRow,
    /// The name of the user who issued it.
    pub issued_by_name: String,
    pub issued_at: String,
    pub sent_at: Option<String>,
    /// When it was acked, failed or timed out.
    pub settled_at: Option<String>,
}

/// The meter's latest `max` commands, newest first.
pub async fn timeline(db: &Db, meter_id: &str, max: i64) -> Result<Vec<Timeline>, StorageError> {
    let sql = "SELECT c.command_id, c.request_id, c.resend_of, c.status, c.detail, c.gateway_serial, c.issued_by, \
               c.issued_at, c.sent_at, c.settled_at, COALESCE(u.username, c.issued_by) AS issued_by_name \
               FROM valve_commands c LEFT JOIN ingest_users u ON u.user_id = c.issued_by \
               WHERE c.meter_id = $1 ORDER BY c.issued_at DESC LIMIT $2";
    let rows: Vec<Named> = query::fetch_all(db, sql.to_owned(), vec![meter_id.into(), Bind::Int(max)]).await?;
    Ok(rows
        .into_iter()
        .map(|Named { command, issued_by_name }| Timeline {
            issued_at: iso_micros(command.issued_at),
            sent_at: command.sent_at.map(iso_micros),
            settled_at: command.settled_at.map(iso_micros),
            issued_by_name,
            command,
        })
        .collect())
}

struct Named {
    command: TimelineRow,
    issued_by_name: String,
}
wm_storage::from_row!(Named { ..command, issued_by_name });
