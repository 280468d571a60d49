//! What operators do through telemetry ingest, and the effects ingest
//! decides on its own: answer a meter's shutdown request ([`valve`] closes
//! the valve and follows the command to its end), and act on alarms
//! ([`alarms`]), and set a meter's own leak-detector thresholds
//! ([`thresholds`]). Each decision, its events and its audit record commit
//! in one transaction.

pub mod alarms;
pub mod thresholds;
pub mod valve;

use chrono::{DateTime, Utc};
use serde_json::json;
use wm_eventlog::audit::{self, Attempt};
use wm_proto::{Envelope, Payload};
use wm_storage::Tx;

use crate::{
    domain::shutdown::{self, Answer, ShutdownError, Status},
    error::IngestError,
    state::IngestState,
    storage::{shutdowns, telemetry},
};

/// Answers the meter's pending request with `answer`, as the user `by`,
/// recording `attempt` in the same transaction; returns the request's new
/// status and the valve command a confirmation issued. A confirmation no
/// gateway can carry out is refused ([`IngestError::NoGateway`]): the
/// request stays pending. **Fails closed:** when the audit record cannot be
/// staged, nothing is committed, so no valve command is sent.
pub async fn answer_shutdown(
    state: &IngestState,
    attempt: &Attempt,
    by: &str,
    meter_id: &str,
    answer: Answer,
) -> Result<(Status, Option<String>), IngestError> {
    let mut tx = state.db.begin_write().await?;
    let request = shutdowns::latest_for_answer(&mut tx, meter_id).await?;
    let decided = shutdown::decide(request.as_ref(), shutdown::Command::Answer { answer, by: by.to_owned() })?;
    let request = request.ok_or(ShutdownError::NotFound)?;
    let now = state.now();
    let mut envelopes = envelopes(meter_id, by, decided, now);
    let mut command_id = None;
    if answer == Answer::Confirm {
        let (id, issued) = valve::close(&mut tx, meter_id, &request.request_id, by, now).await?;
        command_id = Some(id);
        envelopes.extend(issued);
    }
    let before = json!({"requestId": request.request_id, "status": request.status.as_str()});
    let after =
        json!({"requestId": request.request_id, "status": answer.status().as_str(), "valveCommandId": command_id});
    commit(state, tx, &envelopes, attempt, (before, after)).await?;
    state.dispatch.notify_one();
    Ok((answer.status(), command_id))
}

/// Writes `envelopes` to the read tables and the outbox with `attempt`'s
/// audit record (`before` → `after`), and commits. **Fails closed:** when
/// the audit record cannot be staged, nothing is committed.
pub(crate) async fn commit(
    state: &IngestState,
    mut tx: Tx,
    envelopes: &[Envelope],
    attempt: &Attempt,
    (before, after): (serde_json::Value, serde_json::Value),
) -> Result<(), IngestError> {
    telemetry::persist_all(&mut tx, envelopes).await?;
    state.relay.stage(&mut tx, None, envelopes).await?;
    let record = attempt.succeeded(Some(before.to_string()), Some(after.to_string()), state.now());
    audit::stage(&mut tx, &state.relay, &record).await.map_err(|e| {
        tracing::error!(error = ?e, action = attempt.action, "the audit record cannot be written: nothing was done");
        IngestError::AuditUnavailable(e)
    })?;
    tx.commit().await?;
    state.relay.wake();
    Ok(())
}

/// What an aggregate decided about `device`, as `actor`'s events at `at`.
pub(crate) fn envelopes(device: &str, actor: &str, events: Vec<Payload>, at: DateTime<Utc>) -> Vec<Envelope> {
    events.into_iter().map(|event| Envelope::new(device, actor, event).with_occurred_at(at)).collect()
}
