//! Valve commands: issued by a confirmed shutdown for the gateway that last
//! heard the meter, sent, and settled by the gateway's ack. A status moves
//! only as `domain::valve` allows.

use chrono::DateTime;
use wm_proto::Payload;
use wm_storage::{
    Db, StorageError, Tx, execute,
    query::{self, Bind},
    with_tx,
};

use crate::domain::valve::{Status, ValveCommand};

#[derive(sqlx::FromRow)]
struct Row {
    command_id: String,
    meter_id: String,
    gateway_serial: String,
    meter_ble_address: String,
    request_id: Option<String>,
    status: String,
    issued_at: i64,
}

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
        })
    }
}

/// The serial of the gateway that last heard the meter.
pub async fn last_gateway(tx: &mut Tx, meter_id: &str) -> Result<Option<String>, StorageError> {
    let sql = "SELECT g.serial_number FROM gateway_activity a JOIN ingest_gateways g ON g.id = a.gateway_id \
               WHERE a.meter_id = $1 ORDER BY a.occurred_at DESC LIMIT 1";
    Ok(with_tx!(tx, conn => sqlx::query_scalar(sql).bind(meter_id).fetch_optional(&mut **conn).await)?)
}

/// The meter a command is for.
pub async fn meter_of(tx: &mut Tx, command_id: &str) -> Result<Option<String>, StorageError> {
    let sql = "SELECT meter_id FROM valve_commands WHERE command_id = $1";
    Ok(with_tx!(tx, conn => sqlx::query_scalar(sql).bind(command_id).fetch_optional(&mut **conn).await)?)
}

/// Up to `max` pending commands, oldest first, but for gateways whose MQTT
/// session is down: theirs wait, so that a gateway without a persistent
/// session does not miss them (docs/mqtt.md, `cmd`).
pub async fn pending(db: &Db, max: i64) -> Result<Vec<ValveCommand>, StorageError> {
    let sql = "SELECT c.command_id, c.meter_id, c.gateway_serial, c.meter_ble_address, c.request_id, c.status, \
               c.issued_at FROM valve_commands c WHERE c.status = $1 AND NOT EXISTS (\
                 SELECT 1 FROM ingest_gateways g JOIN gateway_sessions s ON s.gateway_id = g.id \
                 WHERE g.serial_number = c.gateway_serial AND NOT s.online) \
               ORDER BY c.issued_at LIMIT $2"
        .to_owned();
    let rows: Vec<Row> = query::fetch_all(db, sql, vec![Status::Pending.as_str().into(), Bind::Int(max)]).await?;
    rows.into_iter().map(ValveCommand::try_from).collect()
}

/// Applies a command event that happened at `at` (µs); keyed by command id,
/// and a status only moves forward.
pub async fn persist(tx: &mut Tx, payload: &Payload, at: i64) -> Result<(), StorageError> {
    match payload {
        Payload::ValveCommandIssued(c) => {
            let sql = "INSERT INTO valve_commands (command_id, meter_id, gateway_serial, meter_ble_address, \
                       request_id, status, issued_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) \
                       ON CONFLICT DO NOTHING";
            let (id, meter, gateway, ble) = (&c.command_id, &c.meter_id, &c.gateway_serial, &c.meter_ble_address);
            execute!(tx, sql, id, meter, gateway, ble, &c.request_id, Status::Pending.as_str(), at)?;
        }
        Payload::ValveCommandSent(c) => move_to(tx, &c.command_id, Status::Sent, None, at).await?,
        Payload::CommandAcknowledged(a) => {
            move_to(tx, &a.command_id, Status::acknowledged(a.ok), Some(&a.detail), at).await?;
        }
        _ => {}
    }
    Ok(())
}

/// Moves the command to `next` if it is in a status `next` is reached from.
async fn move_to(
    tx: &mut Tx,
    command_id: &str,
    next: Status,
    detail: Option<&str>,
    at: i64,
) -> Result<(), StorageError> {
    let [from_a, from_b] = match next.reached_from() {
        [only] => [*only, *only],
        [a, b] => [*a, *b],
        _ => return Ok(()),
    };
    let sql = "UPDATE valve_commands SET status = $1, detail = COALESCE($2, detail), updated_at = $3 \
               WHERE command_id = $4 AND status IN ($5, $6)";
    execute!(tx, sql, next.as_str(), detail, at, command_id, from_a.as_str(), from_b.as_str())?;
    Ok(())
}
