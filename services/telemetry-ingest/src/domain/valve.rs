//! The valve-command aggregate. A confirmed shutdown issues a close command
//! for the gateway that last heard the meter (`ValveCommandIssued`); the
//! dispatcher hands it to the broker (`ValveCommandSent`); the gateway's
//! ack settles it (`CommandAcknowledged`), or the timeout sweep does when
//! no ack came in time (`ValveCommandTimedOut`). A failed or timed-out
//! command can be sent again, as a new command that names it. A status only
//! moves forward (`wm_domain::ValveStatus`).

use chrono::{DateTime, Utc};
pub use wm_domain::ValveStatus as Status;
use wm_proto::{
    Payload,
    v1::{ValveAction, ValveCommandIssued, ValveCommandSent, ValveCommandTimedOut},
};

/// A valve command, as its events left it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValveCommand {
    pub command_id: String,
    pub meter_id: String,
    /// The gateway that relays it, by serial (its `cmd` topic).
    pub gateway_serial: String,
    pub meter_ble_address: String,
    /// The shutdown request it carries out.
    pub request_id: Option<String>,
    /// The command it sends again.
    pub resend_of: Option<String>,
    pub status: Status,
    pub issued_at: DateTime<Utc>,
}

/// Where to send a command: the gateway that last heard the meter, and the
/// meter's BLE address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub gateway_serial: String,
    pub meter_ble_address: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Close the meter's valve, carrying out the request `request_id`.
    Close { command_id: String, meter_id: String, route: Route, request_id: Option<String> },
    /// Send a failed or timed-out command again, as `command_id`.
    Resend { command_id: String, route: Route },
    /// The command was handed to the broker.
    MarkSent,
    /// No ack came in time.
    TimeOut,
}

/// Why a command was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValveError {
    #[error("no such valve command")]
    NotFound,
    #[error("a valve command with this id exists")]
    Exists,
    #[error("only a failed or timed-out valve command can be sent again; this one is {0}")]
    NotResendable(Status),
}

/// Decides `command` against the command `state`. Marking sent what is no
/// longer pending, or timing out what is settled, decides nothing: it
/// happened already.
pub fn decide(state: Option<&ValveCommand>, command: Command) -> Result<Vec<Payload>, ValveError> {
    match (state, command) {
        (None, Command::Close { command_id, meter_id, route, request_id }) => {
            Ok(vec![issued(command_id, meter_id, route, request_id, None)])
        }
        (Some(_), Command::Close { .. }) => Err(ValveError::Exists),
        (Some(c), Command::Resend { command_id, route }) if c.status.may_resend() => {
            Ok(vec![issued(command_id, c.meter_id.clone(), route, c.request_id.clone(), Some(c.command_id.clone()))])
        }
        (Some(c), Command::Resend { .. }) => Err(ValveError::NotResendable(c.status)),
        (None, Command::Resend { .. } | Command::MarkSent | Command::TimeOut) => Err(ValveError::NotFound),
        (Some(c), Command::MarkSent) if c.status == Status::Pending => {
            Ok(vec![Payload::ValveCommandSent(ValveCommandSent {
                command_id: c.command_id.clone(),
                meter_id: c.meter_id.clone(),
            })])
        }
        (Some(c), Command::TimeOut) if !c.status.is_settled() => {
            Ok(vec![Payload::ValveCommandTimedOut(ValveCommandTimedOut {
                command_id: c.command_id.clone(),
                meter_id: c.meter_id.clone(),
            })])
        }
        (Some(_), Command::MarkSent | Command::TimeOut) => Ok(Vec::new()),
    }
}

fn issued(
    command_id: String,
    meter_id: String,
    route: Route,
    request_id: Option<String>,
    resend_of: Option<String>,
) -> Payload {
    Payload::ValveCommandIssued(ValveCommandIssued {
        command_id,
        gateway_serial: route.gateway_serial,
        meter_id,
        meter_ble_address: route.meter_ble_address,
        action: ValveAction::Close.into(),
        request_id,
        resend_of,
    })
}

/// Folds one event, which happened `at`, into the command.
pub fn apply(state: Option<ValveCommand>, event: &Payload, at: DateTime<Utc>) -> Option<ValveCommand> {
    let moved = |c: ValveCommand, next| ValveCommand { status: c.status.moved_to(next), ..c };
    match event {
        Payload::ValveCommandIssued(e) => state.or_else(|| {
            Some(ValveCommand {
                command_id: e.command_id.clone(),
                meter_id: e.meter_id.clone(),
                gateway_serial: e.gateway_serial.clone(),
                meter_ble_address: e.meter_ble_address.clone(),
                request_id: e.request_id.clone(),
                resend_of: e.resend_of.clone(),
                status: Status::Pending,
                issued_at: at,
            })
        }),
        Payload::ValveCommandSent(_) => state.map(|c| moved(c, Status::Sent)),
        Payload::ValveCommandTimedOut(_) => state.map(|c| moved(c, Status::TimedOut)),
        Payload::CommandAcknowledged(a) => state.map(|c| moved(c, Status::acknowledged(a.ok))),
        _ => state,
    }
}

#[cfg(test)]
#[path = "valve_tests.rs"]
mod tests;
