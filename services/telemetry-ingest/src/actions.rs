//! What operators do through telemetry ingest: answer a meter's shutdown
//! request. The request decides the answer; a confirmation also issues the
//! valve command for the gateway that last heard the meter. The answer, the
//! command and the audit record commit in one transaction.

use chrono::{DateTime, Utc};
use serde_json::json;
use uuid::Uuid;
use wm_eventlog::{
    audit::{self, Attempt},
    outbox,
};
use wm_proto::{Envelope, Payload};
use wm_storage::Tx;

use crate::{
    NAME,
    domain::{
        shutdown::{self, Answer, ShutdownError, Status},
        valve,
    },
    error::IngestError,
    state::IngestState,
    storage::{directory, shutdowns, telemetry, valve_commands},
};

/// Answers the meter's pending request with `answer`, as the user `by`,
/// recording `attempt` in the same transaction; returns the request's new
/// status. **Fails closed:** when the audit record cannot be staged,
/// nothing is committed, so no valve command is sent.
pub async fn answer_shutdown(
    state: &IngestState,
    attempt: &Attempt,
    by: &str,
    meter_id: &str,
    answer: Answer,
) -> Result<Status, IngestError> {
    let mut tx = state.db.begin_write().await?;
    let request = shutdowns::latest_for_answer(&mut tx, meter_id).await?;
    let decided = shutdown::decide(request.as_ref(), shutdown::Command::Answer { answer, by: by.to_owned() })?;
    let request = request.ok_or(ShutdownError::NotFound)?;
    let now = state.now();
    let mut envelopes = envelopes(meter_id, by, decided, now);
    let mut command_id = None;
    if answer == Answer::Confirm {
        match close_valve(&mut tx, meter_id, &request.request_id, by, now).await? {
            Some((id, issued)) => {
                command_id = Some(id);
                envelopes.extend(issued);
            }
            None => tracing::warn!(meter = meter_id, "no gateway has heard this meter: no valve command to send"),
        }
    }
    telemetry::persist_all(&mut tx, &envelopes).await?;
    outbox::stage(&mut tx, NAME, None, &envelopes).await?;
    let before = json!({"requestId": request.request_id, "status": request.status.as_str()});
    let after =
        json!({"requestId": request.request_id, "status": answer.status().as_str(), "valveCommandId": command_id});
    let record = attempt.succeeded(Some(before.to_string()), Some(after.to_string()), now);
    audit::stage(&mut tx, NAME, &record).await.map_err(|e| {
        tracing::error!(error = ?e, meter = meter_id, "the answer's audit record cannot be written: nothing was done");
        IngestError::AuditUnavailable(e)
    })?;
    tx.commit().await?;
    state.relay.wake();
    state.dispatch.notify_one();
    Ok(answer.status())
}

/// Issues a close command for `meter_id` through the gateway that last
/// heard it: the command's id and its events, or `None` when no gateway
/// has heard the meter yet (there is nobody to send it through).
async fn close_valve(
    tx: &mut Tx,
    meter_id: &str,
    request_id: &str,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<Option<(String, Vec<Envelope>)>, IngestError> {
    let Some(gateway_serial) = valve_commands::last_gateway(tx, meter_id).await? else { return Ok(None) };
    let Some((ble, _)) = directory::meter_address(tx, meter_id).await? else { return Ok(None) };
    let command_id = Uuid::now_v7().to_string();
    let close = valve::Command::Close {
        command_id: command_id.clone(),
        meter_id: meter_id.to_owned(),
        gateway_serial,
        meter_ble_address: ble.to_string(),
        request_id: Some(request_id.to_owned()),
    };
    let events = valve::decide(None, close)?;
    Ok(Some((command_id, envelopes(meter_id, actor, events, now))))
}

/// What an aggregate decided about `device`, as `actor`'s events at `at`.
pub(crate) fn envelopes(device: &str, actor: &str, events: Vec<Payload>, at: DateTime<Utc>) -> Vec<Envelope> {
    events.into_iter().map(|event| Envelope::new(device, actor, event).with_occurred_at(at)).collect()
}
