//! The valve-command dispatcher: hands pending commands to the broker, for
//! the gateway that relays each, and records that they were sent; and
//! times out those no gateway acknowledged in time. Only the dispatcher
//! talks to the broker about commands, and it runs live only: rebuilding
//! the tables from the log never sends a command again.

use std::time::Duration;

use serde_json::json;
use tokio_util::sync::CancellationToken;
use wm_mqtt::Link;
use wm_storage::StorageError;
use wm_uplink::topic;

use crate::{
    NAME, actions,
    actions::envelopes,
    domain::valve::{self, ValveCommand, ValveError},
    state::IngestState,
    storage::{telemetry, valve_commands},
};

/// Commands handed to the broker per round.
const ROUND: i64 = 100;

/// Hands pending commands to the broker whenever woken, and every second
/// anyway, until `stop`.
pub async fn run(ingest: IngestState, link: Link, stop: CancellationToken) {
    loop {
        if let Err(e) = send_pending(&ingest, &link).await {
            tracing::warn!(error = ?e, "cannot send valve commands yet, retrying");
        }
        if let Err(e) = actions::valve::time_out_overdue(&ingest).await {
            tracing::warn!(error = ?e, "cannot time out valve commands yet, retrying");
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = ingest.dispatch.notified() => {}
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
        }
    }
}

#[derive(Debug, thiserror::Error)]
enum DispatchError {
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error(transparent)]
    Valve(#[from] ValveError),
    #[error("the broker connection refused the command")]
    Mqtt(#[from] rumqttc::ClientError),
}

async fn send_pending(ingest: &IngestState, link: &Link) -> Result<(), DispatchError> {
    for command in valve_commands::pending(&ingest.db, ROUND).await? {
        link.publish(topic::commands(&command.gateway_serial), payload(&command)).await?;
        let sent = valve::decide(Some(&command), valve::Command::MarkSent)?;
        let envelopes = envelopes(&command.meter_id, &format!("service:{NAME}"), sent, ingest.now());
        let mut tx = ingest.db.begin_write().await?;
        telemetry::persist_all(&mut tx, &envelopes).await?;
        ingest.relay.stage(&mut tx, None, &envelopes).await?;
        tx.commit().await?;
        ingest.relay.wake();
        ingest.metrics.valve_commands(valve::Status::Sent, 1);
        tracing::info!(command = command.command_id, gateway = command.gateway_serial, "valve command sent");
    }
    Ok(())
}

/// The `cmd` payload (docs/mqtt.md).
fn payload(command: &ValveCommand) -> Vec<u8> {
    json!({
        "commandId": command.command_id,
        "action": "close",
        "meter": command.meter_ble_address,
        "requestId": command.request_id,
        "issuedAt": command.issued_at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
    })
    .to_string()
    .into_bytes()
}
