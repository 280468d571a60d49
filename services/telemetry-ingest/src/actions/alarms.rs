//! Alarms: raised and cleared by the gateways' alerts as ingest takes them
//! in, and acted on by operators (acknowledge, assign, comment, clear,
//! close), each action audited.

use std::collections::{HashMap, hash_map::Entry};

use serde_json::json;
use wm_domain::DeviceKind;
use wm_eventlog::audit::Attempt;
use wm_proto::{Envelope, Payload};
use wm_storage::{StorageError, Tx};

use super::{commit, envelopes};
use crate::{
    AlarmSettings,
    domain::alarm::{self, Alarm, AlarmError},
    error::IngestError,
    state::IngestState,
    storage::{alarm_views, alarms},
};

/// The alarm events the alerts among `accepted` decide, in order: a raise
/// opens an alarm unless one of its type is open on the meter, a clear
/// clears the open one. Each alarm event keeps its alert's actor and time,
/// so the alarm's id is the same on every replay.
pub async fn from_alerts(
    tx: &mut Tx,
    accepted: &[Envelope],
    settings: &AlarmSettings,
) -> Result<Vec<Envelope>, StorageError> {
    let mut open: HashMap<(String, String), Option<Alarm>> = HashMap::new();
    let mut decided = Vec::new();
    for envelope in accepted {
        let (meter_id, alarm_type, raised) = match &envelope.payload {
            Some(Payload::AlertRaised(a)) => (&a.meter_id, &a.alert_type, Some(&a.gateway_id)),
            Some(Payload::AlertCleared(a)) => (&a.meter_id, &a.alert_type, None),
            _ => continue,
        };
        let Some(at) = envelope.occurred_at_utc() else { continue };
        let state = match open.entry((meter_id.clone(), alarm_type.clone())) {
            Entry::Occupied(known) => known.into_mut(),
            Entry::Vacant(unknown) => unknown.insert(alarms::open(tx, meter_id, alarm_type).await?),
        };
        let command = match raised {
            Some(gateway_id) => alarm::Command::Raise {
                device_id: meter_id.clone(),
                device_kind: DeviceKind::Meter,
                alarm_type: alarm_type.clone(),
                severity: settings.severity(alarm_type),
                at,
                details: json!({"gateway": envelope.actor.strip_prefix("gateway:"), "gatewayId": gateway_id}),
            },
            None => alarm::Command::ClearByDevice,
        };
        let events = alarm::decide(state.as_ref(), command).unwrap_or_default();
        for event in &events {
            *state = alarm::apply(state.take(), event, at);
        }
        decided.extend(envelopes(meter_id, &envelope.actor, events, at));
    }
    Ok(decided)
}

/// `by`'s `command` on the alarm, audited as `attempt`.
pub async fn act(
    state: &IngestState,
    attempt: &Attempt,
    by: &str,
    alarm_id: &str,
    command: alarm::Command,
) -> Result<(), IngestError> {
    if let alarm::Command::Assign { assignee: Some(user) } = &command
        && !alarm_views::is_assignable(&state.db, user).await?
    {
        return Err(IngestError::NotAssignable(user.clone()));
    }
    let mut tx = state.db.begin_write().await?;
    let current = alarms::find(&mut tx, alarm_id).await?;
    let events = alarm::decide(current.as_ref(), command)?;
    let alarm = current.ok_or(AlarmError::NotFound)?;
    if events.is_empty() {
        return Ok(());
    }
    let envelopes = envelopes(&alarm.device_id, by, events, state.now());
    let after = envelopes
        .iter()
        .filter_map(|e| e.payload.as_ref())
        .try_fold(alarm.clone(), |a, event| alarm::apply(Some(a), event, alarm.raised_at));
    let view = |a: Option<&Alarm>| a.map(|a| json!({"status": a.status.as_str(), "assignee": a.assignee}));
    commit(state, tx, &envelopes, attempt, (json!(view(Some(&alarm))), json!(view(after.as_ref())))).await
}

/// The outcome of a bulk acknowledgement.
#[derive(Debug, Default, serde::Serialize, utoipa::ToSchema)]
pub struct Acknowledged {
    /// The alarms acknowledged now.
    pub acknowledged: Vec<String>,
    /// Those that were not, each with the error's code and message.
    pub skipped: Vec<Skipped>,
}

#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct Skipped {
    pub id: String,
    #[schema(example = "alarm_not_active")]
    pub code: String,
    pub message: String,
}

/// Acknowledges each alarm of `ids` with `note`, each as its own audited
/// action; one that cannot be is skipped, with why.
pub async fn acknowledge_all(
    state: &IngestState,
    attempt: &Attempt,
    by: &str,
    ids: &[String],
    note: &str,
) -> Result<Acknowledged, IngestError> {
    let mut outcome = Acknowledged::default();
    for id in ids {
        let command = alarm::Command::Acknowledge { note: note.to_owned() };
        let on = attempt.clone().on(id);
        match act(state, &on, by, id, command).await {
            Ok(()) => outcome.acknowledged.push(id.clone()),
            Err(e @ (IngestError::Alarm(_) | IngestError::Invalid { .. })) => {
                // Refused: audited like a refusal of the single action.
                if let Err(e) = state.audited::<()>(&on, Err(e.into())).await {
                    outcome.skipped.push(Skipped { id: id.clone(), code: e.code.to_owned(), message: e.message });
                }
            }
            Err(e) => return Err(e),
        }
    }
    Ok(outcome)
}
