//! Valve commands: queued by a confirmed shutdown, sent to the gateway that
//! last heard the meter, acknowledged by it.

use wm_proto::Payload;
use wm_storage::{
    Db, Tx,
    query::{self, Bind},
    with_tx,
};

use super::execute;

/// A command waiting to be handed to the broker.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Pending {
    pub command_id: String,
    pub meter_id: String,
    pub gateway_serial: String,
    pub meter_ble_address: String,
    pub request_id: Option<String>,
    pub issued_at: i64,
}

/// The serial of the gateway that last heard the meter.
pub async fn last_gateway(tx: &mut Tx, meter_id: &str) -> Result<Option<String>, sqlx::Error> {
    let sql = "SELECT g.serial_number FROM gateway_activity a JOIN ingest_gateways g ON g.id = a.gateway_id \
               WHERE a.meter_id = $1 ORDER BY a.occurred_at DESC LIMIT 1";
    with_tx!(tx, conn => sqlx::query_scalar(sql).bind(meter_id).fetch_optional(&mut **conn).await)
}

/// The meter a command is for.
pub async fn meter_of(tx: &mut Tx, command_id: &str) -> Result<Option<String>, sqlx::Error> {
    let sql = "SELECT meter_id FROM valve_commands WHERE command_id = $1";
    with_tx!(tx, conn => sqlx::query_scalar(sql).bind(command_id).fetch_optional(&mut **conn).await)
}

/// Up to `max` pending commands, oldest first, but for gateways whose MQTT
/// session is down: theirs wait, so that a gateway without a persistent
/// session does not miss them (docs/mqtt.md, `cmd`).
pub async fn pending(db: &Db, max: i64) -> Result<Vec<Pending>, sqlx::Error> {
    let sql = "SELECT c.command_id, c.meter_id, c.gateway_serial, c.meter_ble_address, c.request_id, c.issued_at \
               FROM valve_commands c WHERE c.status = 'pending' AND NOT EXISTS (\
                 SELECT 1 FROM ingest_gateways g JOIN gateway_sessions s ON s.gateway_id = g.id \
                 WHERE g.serial_number = c.gateway_serial AND NOT s.online) \
               ORDER BY c.issued_at LIMIT $1"
        .to_owned();
    query::fetch_all(db, sql, vec![Bind::Int(max)]).await
}

/// A meter's latest command: its id and delivery status.
pub async fn latest(db: &Db, meter_id: &str) -> Result<Option<(String, String)>, sqlx::Error> {
    let sql = "SELECT command_id, status FROM valve_commands WHERE meter_id = $1 \
               ORDER BY issued_at DESC, command_id DESC LIMIT 1"
        .to_owned();
    Ok(query::fetch_all(db, sql, vec![Bind::Text(meter_id.to_owned())]).await?.into_iter().next())
}

/// Applies a command event; keyed by command id, and a status only moves
/// forward (pending → sent → acked or failed).
pub async fn persist(tx: &mut Tx, payload: &Payload, at: i64) -> Result<(), sqlx::Error> {
    match payload {
        Payload::ValveCommandIssued(c) => {
            let sql = "INSERT INTO valve_commands (command_id, meter_id, gateway_serial, meter_ble_address, \
                       request_id, status, issued_at, updated_at) VALUES ($1, $2, $3, $4, $5, 'pending', $6, $6) \
                       ON CONFLICT DO NOTHING";
            execute!(tx, sql, &c.command_id, &c.meter_id, &c.gateway_serial, &c.meter_ble_address, &c.request_id, at)?;
        }
        Payload::ValveCommandSent(c) => {
            let sql = "UPDATE valve_commands SET status = 'sent', updated_at = $1 \
                       WHERE command_id = $2 AND status = 'pending'";
            execute!(tx, sql, at, &c.command_id)?;
        }
        Payload::CommandAcknowledged(a) => {
            let status = if a.ok { "acked" } else { "failed" };
            let sql = "UPDATE valve_commands SET status = $1, detail = $2, updated_at = $3 \
                       WHERE command_id = $4 AND status IN ('pending', 'sent')";
            execute!(tx, sql, status, &a.detail, at, &a.command_id)?;
        }
        _ => {}
    }
    Ok(())
}
