//! The valve-command aggregate. A confirmed shutdown issues a close command
//! for the gateway that last heard the meter (`ValveCommandIssued`); the
//! dispatcher hands it to the broker (`ValveCommandSent`); the gateway's
//! ack settles it (`CommandAcknowledged`, from its uplink). A status only
//! moves forward: pending → sent → acked or failed.

use chrono::{DateTime, Utc};
use wm_proto::{
    Payload,
    v1::{ValveAction, ValveCommandIssued, ValveCommandSent},
};

statuses! {
    /// Where a command stands.
    pub enum Status {
        /// Queued, not yet handed to the broker.
        Pending => "pending",
        /// Handed to the broker for the gateway.
        Sent => "sent",
        /// The gateway closed the valve.
        Acked => "acked",
        /// The gateway could not close it.
        Failed => "failed",
    }
}

impl Status {
    /// The statuses a command may move to this one from.
    pub fn reached_from(self) -> &'static [Status] {
        match self {
            Status::Pending => &[],
            Status::Sent => &[Status::Pending],
            Status::Acked | Status::Failed => &[Status::Pending, Status::Sent],
        }
    }

    /// The status a gateway's ack settles a command in.
    pub fn acknowledged(ok: bool) -> Status {
        if ok { Status::Acked } else { Status::Failed }
    }

    fn moved_to(self, next: Status) -> Status {
        if next.reached_from().contains(&self) { next } else { self }
    }
}

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
    pub status: Status,
    pub issued_at: DateTime<Utc>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Close the meter's valve, through the gateway `gateway_serial`.
    Close {
        command_id: String,
        meter_id: String,
        gateway_serial: String,
        meter_ble_address: String,
        request_id: Option<String>,
    },
    /// The command was handed to the broker.
    MarkSent,
}

/// Why a command was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValveError {
    #[error("no such valve command")]
    NotFound,
    #[error("a valve command with this id exists")]
    Exists,
}

/// Decides `command` against the command `state`. Marking sent what is no
/// longer pending decides nothing: it was sent, or settled, already.
pub fn decide(state: Option<&ValveCommand>, command: Command) -> Result<Vec<Payload>, ValveError> {
    match (state, command) {
        (None, Command::Close { command_id, meter_id, gateway_serial, meter_ble_address, request_id }) => {
            Ok(vec![Payload::ValveCommandIssued(ValveCommandIssued {
                command_id,
                gateway_serial,
                meter_id,
                meter_ble_address,
                action: ValveAction::Close.into(),
                request_id,
            })])
        }
        (Some(_), Command::Close { .. }) => Err(ValveError::Exists),
        (None, Command::MarkSent) => Err(ValveError::NotFound),
        (Some(c), Command::MarkSent) if c.status == Status::Pending => {
            Ok(vec![Payload::ValveCommandSent(ValveCommandSent {
                command_id: c.command_id.clone(),
                meter_id: c.meter_id.clone(),
            })])
        }
        (Some(_), Command::MarkSent) => Ok(Vec::new()),
    }
}

/// Folds one event, which happened `at`, into the command.
pub fn apply(state: Option<ValveCommand>, event: &Payload, at: DateTime<Utc>) -> Option<ValveCommand> {
    match event {
        Payload::ValveCommandIssued(e) => state.or_else(|| {
            Some(ValveCommand {
                command_id: e.command_id.clone(),
                meter_id: e.meter_id.clone(),
                gateway_serial: e.gateway_serial.clone(),
                meter_ble_address: e.meter_ble_address.clone(),
                request_id: e.request_id.clone(),
                status: Status::Pending,
                issued_at: at,
            })
        }),
        Payload::ValveCommandSent(_) => state.map(|c| ValveCommand { status: c.status.moved_to(Status::Sent), ..c }),
        Payload::CommandAcknowledged(a) => {
            state.map(|c| ValveCommand { status: c.status.moved_to(Status::acknowledged(a.ok)), ..c })
        }
        _ => state,
    }
}

#[cfg(test)]
mod tests {
    use wm_proto::v1::CommandAcknowledged;

    use super::*;

    fn at() -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000, 0).unwrap()
    }

    fn close() -> Command {
        Command::Close {
            command_id: "c1".into(),
            meter_id: "m1".into(),
            gateway_serial: "AB12CD34EF".into(),
            meter_ble_address: "AA:BB:CC:DD:EE:01".into(),
            request_id: Some("r1".into()),
        }
    }

    fn state(events: &[Payload]) -> Option<ValveCommand> {
        events.iter().fold(None, |state, event| apply(state, event, at()))
    }

    fn acked(ok: bool) -> Payload {
        Payload::CommandAcknowledged(CommandAcknowledged {
            command_id: "c1".into(),
            ok,
            detail: String::new(),
            gateway_id: "g1".into(),
            message_id: 3,
        })
    }

    #[test]
    fn given_nothing_when_a_valve_is_closed_then_a_pending_close_is_issued() {
        let when = decide(None, close()).unwrap();
        let Payload::ValveCommandIssued(issued) = &when[0] else { panic!("{when:?}") };
        assert_eq!(issued.action(), ValveAction::Close);
        let then = state(&when).unwrap();
        assert_eq!((then.status, then.request_id.as_deref(), then.issued_at), (Status::Pending, Some("r1"), at()));
        assert_eq!(decide(Some(&then), close()), Err(ValveError::Exists));
    }

    #[test]
    fn given_a_pending_command_when_sent_then_acked_it_moves_forward_only() {
        let given = decide(None, close()).unwrap();
        let sent = decide(state(&given).as_ref(), Command::MarkSent).unwrap();
        let given = [given, sent].concat();
        assert_eq!(state(&given).unwrap().status, Status::Sent);
        assert_eq!(decide(state(&given).as_ref(), Command::MarkSent), Ok(Vec::new()), "sent once");
        let then = state(&[given.clone(), vec![acked(true)]].concat()).unwrap();
        assert_eq!(then.status, Status::Acked);
        let failed_then_acked = state(&[given, vec![acked(false), acked(true)]].concat()).unwrap();
        assert_eq!(failed_then_acked.status, Status::Failed, "a settled command stays settled");
    }

    #[test]
    fn given_a_settled_command_when_a_late_sent_arrives_then_it_stays_settled() {
        let issued = decide(None, close()).unwrap();
        let sent = decide(state(&issued).as_ref(), Command::MarkSent).unwrap();
        let then = state(&[issued, vec![acked(true)], sent].concat()).unwrap();
        assert_eq!(then.status, Status::Acked);
    }

    #[test]
    fn given_no_command_when_marked_sent_then_it_is_not_found() {
        assert_eq!(decide(None, Command::MarkSent), Err(ValveError::NotFound));
    }

    #[test]
    fn statuses_read_back_from_their_words_and_only_move_forward() {
        for status in [Status::Pending, Status::Sent, Status::Acked, Status::Failed] {
            assert_eq!(status.as_str().parse(), Ok(status));
        }
        assert_eq!(Status::Sent.reached_from(), [Status::Pending]);
        assert_eq!(Status::Failed.reached_from(), [Status::Pending, Status::Sent]);
        assert!(Status::Pending.reached_from().is_empty());
    }
}
