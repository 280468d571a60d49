use wm_proto::v1::CommandAcknowledged;

use super::*;

fn at() -> DateTime<Utc> {
    DateTime::from_timestamp(1_800_000_000, 0).unwrap()
}

fn route() -> Route {
    Route { gateway_serial: "AB12CD34EF".into(), meter_ble_address: "AA:BB:CC:DD:EE:01".into() }
}

fn close() -> Command {
    Command::Close { command_id: "c1".into(), meter_id: "m1".into(), route: route(), request_id: Some("r1".into()) }
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

fn sent_once() -> Vec<Payload> {
    let issued = decide(None, close()).unwrap();
    let sent = decide(state(&issued).as_ref(), Command::MarkSent).unwrap();
    [issued, sent].concat()
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
    let given = sent_once();
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
fn given_a_sent_command_when_it_times_out_then_a_late_ack_changes_nothing() {
    let given = sent_once();
    let when = decide(state(&given).as_ref(), Command::TimeOut).unwrap();
    assert!(matches!(&when[..], [Payload::ValveCommandTimedOut(t)] if t.command_id == "c1"));
    let then = state(&[given, when, vec![acked(true)]].concat()).unwrap();
    assert_eq!(then.status, Status::TimedOut);
    assert_eq!(decide(Some(&then), Command::TimeOut), Ok(Vec::new()), "timed out once");
}

#[test]
fn given_an_acked_command_when_the_sweep_runs_then_nothing_times_out() {
    let given = [sent_once(), vec![acked(true)]].concat();
    assert_eq!(decide(state(&given).as_ref(), Command::TimeOut), Ok(Vec::new()));
}

#[test]
fn given_a_failed_command_when_resent_then_a_new_command_names_it() {
    let given = [sent_once(), vec![acked(false)]].concat();
    let other = Route { gateway_serial: "ZZ12CD34EF".into(), ..route() };
    let when = decide(state(&given).as_ref(), Command::Resend { command_id: "c2".into(), route: other }).unwrap();
    let then = state(&when).unwrap();
    assert_eq!(then.command_id, "c2");
    assert_eq!(then.resend_of.as_deref(), Some("c1"));
    assert_eq!(then.request_id.as_deref(), Some("r1"));
    assert_eq!((then.gateway_serial.as_str(), then.status), ("ZZ12CD34EF", Status::Pending));
}

#[test]
fn given_a_command_in_flight_or_acked_when_resent_then_it_is_refused() {
    let resend = || Command::Resend { command_id: "c2".into(), route: route() };
    assert_eq!(decide(state(&sent_once()).as_ref(), resend()), Err(ValveError::NotResendable(Status::Sent)));
    let acked = state(&[sent_once(), vec![acked(true)]].concat());
    assert_eq!(decide(acked.as_ref(), resend()), Err(ValveError::NotResendable(Status::Acked)));
    assert_eq!(decide(None, resend()), Err(ValveError::NotFound));
}

#[test]
fn given_no_command_when_marked_sent_or_timed_out_then_it_is_not_found() {
    assert_eq!(decide(None, Command::MarkSent), Err(ValveError::NotFound));
    assert_eq!(decide(None, Command::TimeOut), Err(ValveError::NotFound));
}
