//! Valve commands followed to the end: the close order a confirmation
//! issues, an operator's resend of a failed or timed-out one, and the sweep
//! that times out a command no gateway acknowledged in time and raises a
//! `valve-timeout` alarm.

use chrono::{DateTime, Utc};
use serde_json::json;
use uuid::Uuid;
use wm_domain::DeviceKind;
use wm_eventlog::audit::Attempt;
use wm_proto::Envelope;
use wm_storage::{StorageError, Tx};

use super::{commit, envelopes};
use crate::{
    NAME,
    domain::{
        alarm::{self, VALVE_TIMEOUT},
        valve::{self, Route, ValveError},
    },
    error::IngestError,
    state::IngestState,
    storage::{alarms, directory, telemetry, valve_commands},
};

/// Commands timed out per sweep, at most.
const SWEEP: i64 = 100;

/// Where a command for the meter goes: the gateway that last heard it, or
/// [`IngestError::NoGateway`].
async fn route(tx: &mut Tx, meter_id: &str) -> Result<Route, IngestError> {
    let gateway = valve_commands::last_gateway(tx, meter_id).await?;
    let address = directory::meter_address(tx, meter_id).await?;
    match (gateway, address) {
        (Some(gateway_serial), Some((ble, _))) => Ok(Route { gateway_serial, meter_ble_address: ble.to_string() }),
        _ => Err(IngestError::NoGateway),
    }
}

/// Issues a close command for `meter_id`, carrying out `request_id`: the
/// command's id and its events.
pub(super) async fn close(
    tx: &mut Tx,
    meter_id: &str,
    request_id: &str,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<(String, Vec<Envelope>), IngestError> {
    let route = route(tx, meter_id).await?;
    let command_id = Uuid::now_v7().to_string();
    let close = valve::Command::Close {
        command_id: command_id.clone(),
        meter_id: meter_id.to_owned(),
        route,
        request_id: Some(request_id.to_owned()),
    };
    let events = valve::decide(None, close)?;
    Ok((command_id, envelopes(meter_id, actor, events, now)))
}

/// Sends a failed or timed-out command again, through the gateway that last
/// heard the meter, as the user `by`; returns the new command's id.
pub async fn resend(state: &IngestState, attempt: &Attempt, by: &str, command_id: &str) -> Result<String, IngestError> {
    let mut tx = state.db.begin_write().await?;
    let command = valve_commands::find(&mut tx, command_id).await?;
    let old = command.as_ref().ok_or(ValveError::NotFound)?;
    if !old.status.may_resend() {
        return Err(ValveError::NotResendable(old.status).into());
    }
    let route = route(&mut tx, &old.meter_id).await?;
    let new_id = Uuid::now_v7().to_string();
    let events = valve::decide(command.as_ref(), valve::Command::Resend { command_id: new_id.clone(), route })?;
    let envelopes = envelopes(&old.meter_id, by, events, state.now());
    let before = json!({"commandId": old.command_id, "status": old.status.as_str()});
    let after = json!({"commandId": new_id, "resendOf": old.command_id, "status": "pending"});
    commit(state, tx, &envelopes, attempt, (before, after)).await?;
    state.dispatch.notify_one();
    Ok(new_id)
}

/// Times out the commands issued longer ago than the configured timeout
/// and still unacknowledged, raising a `valve-timeout` alarm on each meter;
/// returns how many timed out. Runs live only, like the dispatcher.
pub async fn time_out_overdue(state: &IngestState) -> Result<usize, StorageError> {
    let now = state.now();
    let timeout = chrono::Duration::seconds(i64::try_from(state.alarms.valve_timeout_secs).unwrap_or(i64::MAX));
    let overdue = valve_commands::overdue(&state.db, (now - timeout).timestamp_micros(), SWEEP).await?;
    let actor = format!("service:{NAME}");
    let mut tx = state.db.begin_write().await?;
    let (mut all, mut timed_out_count) = (Vec::new(), 0);
    for command in &overdue {
        let Ok(timed_out) = valve::decide(Some(command), valve::Command::TimeOut) else { continue };
        let mut events = envelopes(&command.meter_id, &actor, timed_out, now);
        // Claim it: another replica's sweep may have timed it out already.
        let Some(claim) = events.first() else { continue };
        if !valve_commands::persist(&mut tx, claim, now.timestamp_micros()).await? {
            continue;
        }
        let open = alarms::open(&mut tx, &command.meter_id, VALVE_TIMEOUT).await?;
        let raise = alarm::Command::Raise {
            device_id: command.meter_id.clone(),
            device_kind: DeviceKind::Meter,
            alarm_type: VALVE_TIMEOUT.to_owned(),
            severity: state.alarms.severity(VALVE_TIMEOUT),
            at: now,
            details: json!({
                "commandId": command.command_id,
                "gateway": command.gateway_serial,
                "requestId": command.request_id,
                "timeoutSecs": state.alarms.valve_timeout_secs,
            }),
        };
        events.extend(envelopes(
            &command.meter_id,
            &actor,
            alarm::decide(open.as_ref(), raise).unwrap_or_default(),
            now,
        ));
        telemetry::persist_all(&mut tx, &events).await?;
        tracing::warn!(command = command.command_id, meter = command.meter_id, "valve command timed out");
        timed_out_count += 1;
        all.extend(events);
    }
    if all.is_empty() {
        return Ok(0);
    }
    state.relay.stage(&mut tx, None, &all).await?;
    tx.commit().await?;
    state.relay.wake();
    state.metrics.valve_commands(valve::Status::TimedOut, timed_out_count as u64);
    Ok(timed_out_count)
}
