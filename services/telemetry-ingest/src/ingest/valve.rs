//! The valve chain: a confirmed shutdown queues a close command for the
//! gateway that last heard the meter; the dispatcher hands pending
//! commands to the broker and records that they were sent; the gateway's
//! ack settles them (see `storage::commands`). Only the dispatcher talks to
//! the broker, and it runs live only: rebuilding the tables from the log
//! never sends a command again.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::json;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;
use wm_eventlog::outbox;
use wm_proto::{
    Envelope, Payload,
    v1::{ValveAction, ValveCommandIssued, ValveCommandSent},
};
use wm_storage::Tx;

use super::Ingest;
use crate::{
    NAME,
    mqtt::link::Link,
    storage::{
        commands::{self, Pending},
        directory, telemetry,
    },
    uplink::topic,
};

/// Commands handed to the broker per round.
const ROUND: i64 = 100;

/// Queues a close command for `meter_id`, in `tx`; `None` when no gateway
/// has heard the meter yet (there is nobody to send it through).
pub async fn close(
    tx: &mut Tx,
    meter_id: &str,
    request_id: &str,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<Option<Envelope>, sqlx::Error> {
    let Some(gateway_serial) = commands::last_gateway(tx, meter_id).await? else { return Ok(None) };
    let Some((ble, _)) = directory::meter_address(tx, meter_id).await? else { return Ok(None) };
    let issued = ValveCommandIssued {
        command_id: Uuid::now_v7().to_string(),
        gateway_serial,
        meter_id: meter_id.to_owned(),
        meter_ble_address: ble.to_string(),
        action: ValveAction::Close.into(),
        request_id: Some(request_id.to_owned()),
    };
    let envelope = Envelope::new(meter_id, actor, Payload::ValveCommandIssued(issued)).with_occurred_at(now);
    telemetry::persist_all(tx, std::slice::from_ref(&envelope)).await?;
    Ok(Some(envelope))
}

/// Hands pending commands to the broker whenever woken, and every second
/// anyway, until `stop`.
pub async fn dispatch(ingest: Ingest, link: Link, stop: CancellationToken) {
    loop {
        if let Err(e) = send_pending(&ingest, &link).await {
            tracing::warn!(error = ?e, "cannot send valve commands yet, retrying");
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
    Storage(#[from] outbox::OutboxError),
    #[error("the broker connection refused the command")]
    Mqtt(#[from] rumqttc::ClientError),
}

impl From<sqlx::Error> for DispatchError {
    fn from(e: sqlx::Error) -> Self {
        Self::Storage(e.into())
    }
}

async fn send_pending(ingest: &Ingest, link: &Link) -> Result<(), DispatchError> {
    for command in commands::pending(&ingest.db, ROUND).await? {
        link.publish(topic::commands(&command.gateway_serial), payload(&command)).await?;
        let sent = ValveCommandSent { command_id: command.command_id.clone(), meter_id: command.meter_id.clone() };
        let envelope = Envelope::new(&command.meter_id, format!("service:{NAME}"), Payload::ValveCommandSent(sent))
            .with_occurred_at(ingest.clock.now());
        let mut tx = ingest.db.begin_write().await?;
        telemetry::persist_all(&mut tx, std::slice::from_ref(&envelope)).await?;
        outbox::stage(&mut tx, NAME, None, std::slice::from_ref(&envelope)).await?;
        tx.commit().await?;
        ingest.relay.wake();
        tracing::info!(command = command.command_id, gateway = command.gateway_serial, "valve command sent");
    }
    Ok(())
}

/// The `cmd` payload (docs/mqtt.md).
fn payload(command: &Pending) -> Vec<u8> {
    let issued_at = DateTime::from_timestamp_micros(command.issued_at).unwrap_or_default();
    json!({
        "commandId": command.command_id,
        "action": "close",
        "meter": command.meter_ble_address,
        "requestId": command.request_id,
        "issuedAt": issued_at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
    })
    .to_string()
    .into_bytes()
}
