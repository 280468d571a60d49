//! From MQTT uplinks to events: each batch of received messages is parsed,
//! resolved against the registered devices, deduplicated by the gateway's
//! message id, written to the read tables and staged in the outbox, in one
//! transaction. Only then are the messages acknowledged to the broker, so a
//! crash loses nothing (the broker redelivers) and duplicates nothing (the
//! message id was claimed in the same transaction).

pub mod events;
pub mod metrics;
pub mod valve;
pub mod worker;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use wm_domain::Clock;
use wm_eventlog::outbox::{self, Relay};
use wm_proto::{Envelope, Payload, gateway_actor, time::to_timestamp, v1::DeadLetter};
use wm_storage::{Db, Tx};

use self::{
    events::{Resolved, events},
    metrics::IngestMetrics,
};
use crate::{
    NAME,
    storage::{commands, directory, telemetry},
    uplink::{self, Body, Rejection},
};

/// The most of a rejected payload kept in its dead letter.
const MAX_DEAD_LETTER_BYTES: usize = 256 * 1024;

/// One message as the broker delivered it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Received {
    pub topic: String,
    pub payload: Vec<u8>,
}

/// What became of a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Accepted,
    /// A resend of a message already accepted.
    Duplicate,
    Rejected(Rejection),
}

#[derive(Clone, Debug)]
pub struct Ingest {
    pub db: Db,
    pub relay: Relay,
    pub clock: Arc<dyn Clock>,
    pub metrics: IngestMetrics,
    /// Wakes the valve-command dispatcher.
    pub dispatch: Arc<tokio::sync::Notify>,
}

impl Ingest {
    /// Takes in a batch in one transaction; the caller acknowledges the
    /// messages once this returns `Ok`. An `Err` is an infrastructure
    /// failure: nothing was kept, and the batch should be retried.
    pub async fn accept(&self, batch: &[Received]) -> Result<Vec<Outcome>, outbox::OutboxError> {
        let now = self.clock.now();
        let mut tx = self.db.begin_write().await?;
        let mut outcomes = Vec::with_capacity(batch.len());
        for message in batch {
            let outcome = match take(&mut tx, message, now).await? {
                Taken::Accepted(envelopes) => {
                    for envelope in &envelopes {
                        telemetry::persist(&mut tx, envelope).await?;
                    }
                    outbox::stage(&mut tx, NAME, None, &envelopes).await?;
                    Outcome::Accepted
                }
                Taken::Duplicate => Outcome::Duplicate,
                Taken::Rejected(rejection, gateway) => {
                    let letter = dead_letter(message, &rejection, gateway, now);
                    outbox::stage(&mut tx, NAME, None, &[letter]).await?;
                    tracing::info!(
                        topic = message.topic,
                        reason = rejection.label(),
                        detail = rejection.detail,
                        "uplink dead-lettered"
                    );
                    Outcome::Rejected(rejection)
                }
            };
            outcomes.push(outcome);
        }
        tx.commit().await?;
        self.relay.wake();
        for outcome in &outcomes {
            match outcome {
                Outcome::Accepted => self.metrics.accepted(),
                Outcome::Duplicate => self.metrics.duplicate(),
                Outcome::Rejected(rejection) => self.metrics.rejected(rejection.label()),
            }
        }
        Ok(outcomes)
    }
}

enum Taken {
    Accepted(Vec<Envelope>),
    Duplicate,
    /// With the gateway, when the topic named a registered one.
    Rejected(Rejection, Option<(String, String)>),
}

async fn take(tx: &mut Tx, message: &Received, now: DateTime<Utc>) -> Result<Taken, sqlx::Error> {
    let (serial, kind) = match uplink::topic::parse(&message.topic) {
        Ok(parsed) => parsed,
        Err(rejection) => return Ok(Taken::Rejected(rejection, None)),
    };
    let Some(gateway_id) = directory::gateway(tx, &serial).await? else {
        let rejection = Rejection::unknown_gateway(format!("no gateway is registered with serial {serial}"));
        return Ok(Taken::Rejected(rejection, None));
    };
    let gateway = Some((gateway_id.clone(), serial.to_string()));
    let uplink = match uplink::parse(kind, &message.payload, now) {
        Ok(uplink) => uplink,
        Err(rejection) => return Ok(Taken::Rejected(rejection, gateway)),
    };
    let meter_id = match &uplink.body {
        // An ack names the command; the command knows its meter.
        Body::Ack { command_id, .. } => commands::meter_of(tx, command_id).await?,
        body => match meter_of(body) {
            None => None,
            Some(meter) => match directory::meter(tx, meter).await? {
                Some(id) => Some(id),
                None => {
                    let detail = format!("no meter is registered as {meter:?}");
                    let rejection = Rejection::new(wm_proto::v1::DeadLetterReason::UnknownMeter, detail);
                    return Ok(Taken::Rejected(rejection, gateway));
                }
            },
        },
    };
    if let Some(message_id) = uplink.message_id
        && !telemetry::claim(tx, &gateway_id, message_id, now.timestamp_micros()).await?
    {
        return Ok(Taken::Duplicate);
    }
    let who = Resolved { gateway_id, gateway_serial: serial.to_string(), meter_id };
    Ok(Taken::Accepted(events(&message.topic, &uplink, &who, now)))
}

fn meter_of(body: &Body) -> Option<&uplink::MeterRef> {
    match body {
        Body::Reading { meter, .. }
        | Body::Ble { meter, .. }
        | Body::Alert { meter, .. }
        | Body::ShutdownRequest { meter, .. } => Some(meter),
        Body::Status { .. } | Body::Heartbeat | Body::Discovery { .. } | Body::Ack { .. } => None,
    }
}

fn dead_letter(
    message: &Received,
    rejection: &Rejection,
    gateway: Option<(String, String)>,
    now: DateTime<Utc>,
) -> Envelope {
    let mut detail = rejection.detail.clone();
    let mut raw_payload = message.payload.clone();
    if raw_payload.len() > MAX_DEAD_LETTER_BYTES {
        detail.push_str(&format!(" (first {MAX_DEAD_LETTER_BYTES} of {} bytes kept)", raw_payload.len()));
        raw_payload.truncate(MAX_DEAD_LETTER_BYTES);
    }
    let letter = DeadLetter {
        raw_topic: message.topic.clone(),
        raw_payload,
        reason: rejection.reason.into(),
        detail,
        received_at: Some(to_timestamp(now)),
    };
    let (device, actor) = match gateway {
        Some((id, serial)) => (id, gateway_actor(&serial)),
        None => (String::new(), "mqtt".to_owned()),
    };
    Envelope::new(device, actor, Payload::DeadLetter(letter)).with_occurred_at(now)
}
