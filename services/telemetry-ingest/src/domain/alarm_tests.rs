use serde_json::json;

use super::*;

fn at(seconds: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(1_800_000_000 + seconds, 0).unwrap()
}

fn raise(seconds: i64) -> Command {
    Command::Raise {
        device_id: "m1".into(),
        device_kind: DeviceKind::Meter,
        alarm_type: "leak".into(),
        severity: Severity::Critical,
        at: at(seconds),
        details: json!({"gateway": "AB12CD34EF"}),
    }
}

fn state(events: &[Payload]) -> Option<Alarm> {
    events.iter().fold(None, |state, event| apply(state, event, at(0)))
}

/// The events of `commands`, each decided against the state before it.
fn given(commands: Vec<Command>) -> Vec<Payload> {
    commands.into_iter().fold(Vec::new(), |mut events, command| {
        events.extend(decide(state(&events).as_ref(), command).unwrap());
        events
    })
}

fn ack(note: &str) -> Command {
    Command::Acknowledge { note: note.into() }
}

fn clear() -> Command {
    Command::Clear { note: "valve replaced".into() }
}

fn close() -> Command {
    Command::Close { note: String::new() }
}

#[test]
fn given_nothing_when_a_gateway_raises_then_an_active_alarm_with_a_deterministic_id_is_raised() {
    let when = decide(None, raise(0)).unwrap();
    let Payload::AlarmRaised(raised) = &when[0] else { panic!("{when:?}") };
    assert_eq!(raised.alarm_id, alarm_id("m1", "leak", at(0)));
    assert_eq!(raised.alarm_id.len(), 24);
    assert!(raised.alarm_id.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
    assert_eq!(raised.severity(), AlarmSeverity::Critical);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&raised.details_json).unwrap()["gateway"], "AB12CD34EF");
    let then = state(&when).unwrap();
    assert_eq!((then.status, then.severity, then.device_kind), (Status::Active, Severity::Critical, DeviceKind::Meter));
    assert_eq!(decide(None, raise(0)), Ok(when), "the same raise decides the same alarm");
}

#[test]
fn alarm_ids_differ_by_device_type_and_time() {
    let id = alarm_id("m1", "leak", at(0));
    assert_ne!(id, alarm_id("m2", "leak", at(0)));
    assert_ne!(id, alarm_id("m1", "tamper", at(0)));
    assert_ne!(id, alarm_id("m1", "leak", at(1)));
    assert_ne!(alarm_id("m1", "ab", at(0)), alarm_id("m1a", "b", at(0)), "fields are separated");
}

#[test]
fn given_an_open_alarm_when_the_gateway_raises_again_then_nothing_is_decided() {
    let open = state(&given(vec![raise(0)])).unwrap();
    assert_eq!(decide(Some(&open), raise(60)), Ok(Vec::new()));
    let acknowledged = state(&given(vec![raise(0), ack("")])).unwrap();
    assert_eq!(decide(Some(&acknowledged), raise(60)), Ok(Vec::new()));
}

#[test]
fn given_a_cleared_alarm_when_the_gateway_raises_again_then_a_new_alarm_is_raised() {
    let cleared = state(&given(vec![raise(0), Command::ClearByDevice])).unwrap();
    assert_eq!(cleared.status, Status::Cleared);
    let when = decide(Some(&cleared), raise(60)).unwrap();
    let Payload::AlarmRaised(raised) = &when[0] else { panic!("{when:?}") };
    assert_eq!(raised.alarm_id, alarm_id("m1", "leak", at(60)));
}

#[test]
fn given_an_active_alarm_when_acknowledged_with_a_note_then_it_is_acknowledged_once() {
    let events = given(vec![raise(0), ack("  crew on the way ")]);
    let Payload::AlarmAcknowledged(acknowledged) = &events[1] else { panic!("{events:?}") };
    assert_eq!(acknowledged.note, "crew on the way", "trimmed");
    let then = state(&events).unwrap();
    assert_eq!(then.status, Status::Acknowledged);
    assert_eq!(decide(Some(&then), ack("")), Err(AlarmError::NotActive(Status::Acknowledged)));
}

#[test]
fn the_lifecycle_runs_active_acknowledged_cleared_closed() {
    let events = given(vec![raise(0), ack(""), clear(), close()]);
    assert_eq!(state(&events).unwrap().status, Status::Closed);
    let cleared = state(&given(vec![raise(0), clear()])).unwrap();
    assert_eq!(cleared.status, Status::Cleared, "an unacknowledged alarm can be cleared");
}

#[test]
fn given_an_open_alarm_when_closed_then_it_is_refused_until_cleared() {
    let open = state(&given(vec![raise(0), ack("")])).unwrap();
    assert_eq!(decide(Some(&open), close()), Err(AlarmError::NotCleared(Status::Acknowledged)));
    let cleared = state(&given(vec![raise(0), clear()])).unwrap();
    assert_eq!(decide(Some(&cleared), clear()), Err(AlarmError::NotOpen(Status::Cleared)));
    assert_eq!(decide(Some(&cleared), ack("")), Err(AlarmError::NotActive(Status::Cleared)));
}

#[test]
fn given_a_closed_alarm_then_only_comments_are_taken() {
    let closed = state(&given(vec![raise(0), clear(), close()])).unwrap();
    assert_eq!(decide(Some(&closed), Command::Assign { assignee: Some("u1".into()) }), Err(AlarmError::Closed));
    assert_eq!(decide(Some(&closed), close()), Err(AlarmError::Closed));
    assert_eq!(decide(Some(&closed), clear()), Err(AlarmError::NotOpen(Status::Closed)));
    assert_eq!(decide(Some(&closed), Command::ClearByDevice), Ok(Vec::new()));
    let comment = decide(Some(&closed), Command::Comment { text: "billed".into() }).unwrap();
    assert!(matches!(&comment[..], [Payload::AlarmCommented(c)] if c.text == "billed"));
}

#[test]
fn given_an_alarm_when_assigned_then_unassigned_the_assignee_follows_and_repeats_decide_nothing() {
    let assign = |who: Option<&str>| Command::Assign { assignee: who.map(str::to_owned) };
    let events = given(vec![raise(0), assign(Some("u1"))]);
    let assigned = state(&events).unwrap();
    assert_eq!(assigned.assignee.as_deref(), Some("u1"));
    assert_eq!(decide(Some(&assigned), assign(Some("u1"))), Ok(Vec::new()));
    let unassigned = state(&[events, decide(Some(&assigned), assign(None)).unwrap()].concat()).unwrap();
    assert_eq!(unassigned.assignee, None);
}

#[test]
fn comments_need_text_and_notes_are_bounded() {
    let open = state(&given(vec![raise(0)])).unwrap();
    assert_eq!(decide(Some(&open), Command::Comment { text: "   ".into() }), Err(AlarmError::EmptyComment));
    let long = "é".repeat(MAX_TEXT + 1);
    assert_eq!(decide(Some(&open), Command::Acknowledge { note: long }), Err(AlarmError::TooLong("note")));
    assert!(decide(Some(&open), Command::Acknowledge { note: "é".repeat(MAX_TEXT) }).is_ok());
}

#[test]
fn given_no_alarm_then_actions_are_not_found_and_a_device_clear_decides_nothing() {
    assert_eq!(decide(None, ack("")), Err(AlarmError::NotFound));
    assert_eq!(decide(None, Command::ClearByDevice), Ok(Vec::new()));
}

#[test]
fn late_events_never_move_an_alarm_backwards() {
    let events = given(vec![raise(0), clear(), close()]);
    let acknowledged_late =
        Payload::AlarmAcknowledged(AlarmAcknowledged { alarm_id: alarm_id("m1", "leak", at(0)), note: String::new() });
    assert_eq!(state(&[events, vec![acknowledged_late]].concat()).unwrap().status, Status::Closed);
}

#[test]
fn statuses_and_severities_read_back_from_their_words() {
    for status in Status::ALL {
        assert_eq!(status.as_str().parse(), Ok(*status));
    }
    for severity in Severity::ALL {
        assert_eq!(severity.as_str().parse(), Ok(*severity));
        assert_eq!(Severity::of(AlarmSeverity::from(*severity)), *severity);
    }
}
