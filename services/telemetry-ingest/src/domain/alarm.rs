//! The alarm aggregate (DESIGN §11, docs/alarms.md). A gateway's alert, or
//! w-meter itself (a valve command that timed out), raises an alarm; it is
//! `active` until an operator acknowledges it, `cleared` when the device or
//! an operator clears it, and `closed` when an operator is done with it.
//! It can be assigned to a user and commented on at any time before it is
//! closed. One alarm of a type is open per device: a raise while one is
//! open decides nothing, and the device's clear settles that one.

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use wm_domain::DeviceKind;
use wm_proto::{
    Payload,
    v1::{
        AlarmAcknowledged, AlarmAssigned, AlarmCleared, AlarmClosed, AlarmCommented, AlarmDeviceKind, AlarmRaised,
        AlarmSeverity,
    },
};

wm_domain::statuses! {
    /// Where an alarm stands.
    pub enum Status {
        /// Raised, and nobody has taken note of it yet.
        Active => "active",
        /// An operator took note of it; the condition may still hold.
        Acknowledged => "acknowledged",
        /// The device or an operator cleared it.
        Cleared => "cleared",
        /// Done with: nothing more happens to it.
        Closed => "closed",
    }
}

wm_domain::statuses! {
    /// How bad an alarm is, from its type.
    pub enum Severity {
        Critical => "critical",
        Major => "major",
        Minor => "minor",
        Warning => "warning",
    }
}

impl Status {
    /// Active or acknowledged: the condition has not been cleared.
    pub fn is_open(self) -> bool {
        matches!(self, Status::Active | Status::Acknowledged)
    }
}

impl From<Severity> for AlarmSeverity {
    fn from(severity: Severity) -> Self {
        match severity {
            Severity::Critical => AlarmSeverity::Critical,
            Severity::Major => AlarmSeverity::Major,
            Severity::Minor => AlarmSeverity::Minor,
            Severity::Warning => AlarmSeverity::Warning,
        }
    }
}

impl Severity {
    /// The severity an event carries; an unspecified one is a warning.
    pub fn of(severity: AlarmSeverity) -> Severity {
        match severity {
            AlarmSeverity::Critical => Severity::Critical,
            AlarmSeverity::Major => Severity::Major,
            AlarmSeverity::Minor => Severity::Minor,
            AlarmSeverity::Warning | AlarmSeverity::Unspecified => Severity::Warning,
        }
    }
}

/// The alarm type w-meter raises when a valve command got no ack in time.
pub const VALVE_TIMEOUT: &str = "valve-timeout";

/// The longest note or comment, in characters.
pub const MAX_TEXT: usize = 2000;

/// An alarm, as its events left it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alarm {
    pub alarm_id: String,
    pub device_id: String,
    pub device_kind: DeviceKind,
    pub alarm_type: String,
    pub severity: Severity,
    pub status: Status,
    /// The assignee's user id.
    pub assignee: Option<String>,
    pub raised_at: DateTime<Utc>,
}

/// The id of the alarm of `alarm_type` raised on `device_id` `at`: the same
/// on every replay, 24 lower-case hex digits like every id.
pub fn alarm_id(device_id: &str, alarm_type: &str, at: DateTime<Utc>) -> String {
    let digest = Sha256::new()
        .chain_update(device_id.as_bytes())
        .chain_update([0])
        .chain_update(alarm_type.as_bytes())
        .chain_update([0])
        .chain_update(at.timestamp_micros().to_be_bytes())
        .finalize();
    digest.iter().take(12).map(|b| format!("{b:02x}")).collect()
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// The device (or w-meter) reports the condition, `at`.
    Raise {
        device_id: String,
        device_kind: DeviceKind,
        alarm_type: String,
        severity: Severity,
        at: DateTime<Utc>,
        /// What raised it, as a JSON object.
        details: serde_json::Value,
    },
    /// The device reports that the condition is over.
    ClearByDevice,
    Acknowledge {
        note: String,
    },
    /// Give it to a user (`Some(user id)`), or take it back (`None`).
    Assign {
        assignee: Option<String>,
    },
    Comment {
        text: String,
    },
    Clear {
        note: String,
    },
    Close {
        note: String,
    },
}

/// Why a command was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AlarmError {
    #[error("no such alarm")]
    NotFound,
    #[error("only an active alarm can be acknowledged; this one is {0}")]
    NotActive(Status),
    #[error("only an active or acknowledged alarm can be cleared; this one is {0}")]
    NotOpen(Status),
    #[error("only a cleared alarm can be closed; this one is {0}")]
    NotCleared(Status),
    #[error("the alarm is closed")]
    Closed,
    #[error("a comment needs some text")]
    EmptyComment,
    /// The field (`note` or `text`) is too long.
    #[error("a note or comment is at most {MAX_TEXT} characters")]
    TooLong(&'static str),
}

/// Decides `command` against `state`: for `Raise` and `ClearByDevice`, the
/// open alarm of that type on the device, if any; for the others, the
/// alarm acted on.
pub fn decide(state: Option<&Alarm>, command: Command) -> Result<Vec<Payload>, AlarmError> {
    match command {
        Command::Raise { device_id, device_kind, alarm_type, severity, at, details } => {
            if state.is_some_and(|open| open.status.is_open()) {
                return Ok(Vec::new());
            }
            let kind = match device_kind {
                DeviceKind::Meter => AlarmDeviceKind::Meter,
                DeviceKind::Gateway => AlarmDeviceKind::Gateway,
            };
            Ok(vec![Payload::AlarmRaised(AlarmRaised {
                alarm_id: alarm_id(&device_id, &alarm_type, at),
                device_id,
                device_kind: kind.into(),
                alarm_type,
                severity: AlarmSeverity::from(severity).into(),
                details_json: details.to_string(),
            })])
        }
        Command::ClearByDevice => Ok(match state {
            Some(open) if open.status.is_open() => {
                vec![Payload::AlarmCleared(AlarmCleared { alarm_id: open.alarm_id.clone(), note: String::new() })]
            }
            _ => Vec::new(),
        }),
        command => act(state.ok_or(AlarmError::NotFound)?, command),
    }
}

/// An operator's action on `alarm`.
fn act(alarm: &Alarm, command: Command) -> Result<Vec<Payload>, AlarmError> {
    let alarm_id = alarm.alarm_id.clone();
    let event = match command {
        Command::Acknowledge { note } if alarm.status == Status::Active => {
            Payload::AlarmAcknowledged(AlarmAcknowledged { alarm_id, note: text(note, false)? })
        }
        Command::Acknowledge { .. } => return Err(AlarmError::NotActive(alarm.status)),
        _ if alarm.status == Status::Closed && !matches!(command, Command::Comment { .. }) => {
            return Err(match command {
                Command::Clear { .. } => AlarmError::NotOpen(Status::Closed),
                _ => AlarmError::Closed,
            });
        }
        Command::Assign { assignee } if assignee == alarm.assignee => return Ok(Vec::new()),
        Command::Assign { assignee } => {
            Payload::AlarmAssigned(AlarmAssigned { alarm_id, assignee: assignee.unwrap_or_default() })
        }
        Command::Comment { text: comment } => {
            Payload::AlarmCommented(AlarmCommented { alarm_id, text: text(comment, true)? })
        }
        Command::Clear { note } if alarm.status.is_open() => {
            Payload::AlarmCleared(AlarmCleared { alarm_id, note: text(note, false)? })
        }
        Command::Clear { .. } => return Err(AlarmError::NotOpen(alarm.status)),
        Command::Close { note } if alarm.status == Status::Cleared => {
            Payload::AlarmClosed(AlarmClosed { alarm_id, note: text(note, false)? })
        }
        Command::Close { .. } => return Err(AlarmError::NotCleared(alarm.status)),
        Command::Raise { .. } | Command::ClearByDevice => unreachable!("decided by `decide`"),
    };
    Ok(vec![event])
}

/// A note or comment, trimmed; a comment must say something.
fn text(text: String, required: bool) -> Result<String, AlarmError> {
    let text = text.trim();
    if required && text.is_empty() {
        return Err(AlarmError::EmptyComment);
    }
    if text.chars().count() > MAX_TEXT {
        return Err(AlarmError::TooLong(if required { "text" } else { "note" }));
    }
    Ok(text.to_owned())
}

/// The kind of device an event names; unspecified is a meter.
pub fn device_kind(kind: AlarmDeviceKind) -> DeviceKind {
    match kind {
        AlarmDeviceKind::Gateway => DeviceKind::Gateway,
        AlarmDeviceKind::Meter | AlarmDeviceKind::Unspecified => DeviceKind::Meter,
    }
}

/// Folds one event, which happened `at`, into the alarm.
pub fn apply(state: Option<Alarm>, event: &Payload, at: DateTime<Utc>) -> Option<Alarm> {
    let moved = |a: Alarm, from: &[Status], to| if from.contains(&a.status) { Alarm { status: to, ..a } } else { a };
    match event {
        Payload::AlarmRaised(e) => state.or_else(|| {
            Some(Alarm {
                alarm_id: e.alarm_id.clone(),
                device_id: e.device_id.clone(),
                device_kind: device_kind(e.device_kind()),
                alarm_type: e.alarm_type.clone(),
                severity: Severity::of(e.severity()),
                status: Status::Active,
                assignee: None,
                raised_at: at,
            })
        }),
        Payload::AlarmAcknowledged(_) => state.map(|a| moved(a, &[Status::Active], Status::Acknowledged)),
        Payload::AlarmCleared(_) => state.map(|a| moved(a, &[Status::Active, Status::Acknowledged], Status::Cleared)),
        Payload::AlarmClosed(_) => state.map(|a| moved(a, &[Status::Cleared], Status::Closed)),
        Payload::AlarmAssigned(e) => {
            state.map(|a| Alarm { assignee: if e.assignee.is_empty() { None } else { Some(e.assignee.clone()) }, ..a })
        }
        _ => state,
    }
}

#[cfg(test)]
#[path = "alarm_tests.rs"]
mod tests;
