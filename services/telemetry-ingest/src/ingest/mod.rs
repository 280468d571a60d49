//! From MQTT uplinks to events: each batch of received messages is parsed,
//! resolved against the registered devices, deduplicated by the gateway's
//! message id, written to the read tables and staged in the outbox, in one
//! transaction. Only then are the messages acknowledged to the broker, so a
//! crash loses nothing (the broker redelivers) and duplicates nothing (the
//! message id was claimed in the same transaction).

pub mod events;
pub mod metrics;
pub mod rate_limit;
pub mod worker;

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use wm_domain::SerialNumber;
use wm_proto::{Envelope, Payload, gateway_actor, time::to_timestamp, v1::DeadLetter};
use wm_storage::{StorageError, Tx};
use wm_uplink::{self as uplink, Body, MeterRef, Rejection, Uplink};

use self::{
    events::{Resolved, events},
    rate_limit::RateLimiter,
};
use crate::{
    actions,
    state::IngestState,
    storage::{directory, telemetry, valve_commands},
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

/// Takes in a batch in one transaction; the caller acknowledges the
/// messages once this returns `Ok`. An `Err` is an infrastructure failure:
/// nothing was kept, and the batch should be retried.
pub async fn accept(state: &IngestState, batch: &[Received]) -> Result<Vec<Outcome>, StorageError> {
    let now = state.now();
    let mut tx = state.db.begin_write().await?;
    let mut accepted = Vec::new();
    let mut staged = Vec::new();
    let mut outcomes = Vec::with_capacity(batch.len());
    for (message, taken) in batch.iter().zip(take(&mut tx, batch, &state.rate_limit, now).await?) {
        let outcome = match taken {
            Taken::Accepted(envelopes) => {
                accepted.extend_from_slice(&envelopes);
                staged.extend(envelopes);
                Outcome::Accepted
            }
            Taken::Duplicate => Outcome::Duplicate,
            Taken::Rejected(rejection, gateway) => {
                staged.push(dead_letter(message, &rejection, gateway, now));
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
    let alarms = actions::alarms::from_alerts(&mut tx, &accepted, &state.alarms).await?;
    accepted.extend_from_slice(&alarms);
    staged.extend(alarms);
    telemetry::persist_all(&mut tx, &accepted).await?;
    state.relay.stage(&mut tx, None, &staged).await?;
    tx.commit().await?;
    state.relay.wake();
    let back_online = |e: &Envelope| matches!(&e.payload, Some(Payload::GatewayStatusChanged(s)) if s.online);
    if accepted.iter().any(back_online) {
        // Its waiting valve commands go now.
        state.dispatch.notify_one();
    }
    for outcome in &outcomes {
        match outcome {
            Outcome::Accepted => state.metrics.accepted(),
            Outcome::Duplicate => state.metrics.duplicate(),
            Outcome::Rejected(rejection) => state.metrics.rejected(rejection.label()),
        }
    }
    Ok(outcomes)
}

enum Taken {
    Accepted(Vec<Envelope>),
    Duplicate,
    /// With the gateway, when the topic named a registered one.
    Rejected(Rejection, Option<(String, String)>),
}

/// A message that got as far as its gateway, parsed.
struct Parsed {
    gateway_id: String,
    serial: SerialNumber,
    uplink: Uplink,
}

/// What becomes of each message of `batch`, in order. The devices named
/// are looked up, and the message ids claimed, in a few statements for the
/// whole batch.
async fn take(
    tx: &mut Tx,
    batch: &[Received],
    limiter: &RateLimiter,
    now: DateTime<Utc>,
) -> Result<Vec<Taken>, StorageError> {
    let topics: Vec<_> = batch.iter().map(|m| uplink::topic::parse(&m.topic)).collect();
    let serials = topics.iter().flatten().map(|(serial, _)| serial.as_str()).collect();
    let gateways = directory::gateways(tx, &serials).await?;

    let mut parsed: Vec<Result<Parsed, Taken>> = Vec::with_capacity(batch.len());
    for (message, topic) in batch.iter().zip(topics) {
        parsed.push(parse(message, topic, &gateways, limiter, now));
    }
    let named = parsed.iter().flatten().filter_map(|p| meter_of(&p.uplink.body)).collect();
    let meters = directory::meters(tx, &named).await?;

    let mut resolved: Vec<Result<(Parsed, Option<String>), Taken>> = Vec::with_capacity(batch.len());
    for parsed in parsed {
        resolved.push(match parsed {
            Err(taken) => Err(taken),
            Ok(p) => match resolve(tx, &p, &meters).await? {
                Ok(meter_id) => Ok((p, meter_id)),
                Err(rejection) => Err(Taken::Rejected(rejection, Some((p.gateway_id, p.serial.to_string())))),
            },
        });
    }
    let claimed = claim(tx, &resolved, now).await?;

    let mut seen_in_batch = HashSet::new();
    Ok(resolved
        .into_iter()
        .zip(batch)
        .map(|(resolved, message)| match resolved {
            Err(taken) => taken,
            Ok((p, meter_id)) => {
                if let Some(message_id) = p.uplink.message_id {
                    let key = (p.gateway_id.clone(), telemetry::message_id_value(message_id), observed_at(&p));
                    if !claimed.contains(&key) || !seen_in_batch.insert(key) {
                        return Taken::Duplicate;
                    }
                }
                let who = Resolved { gateway_id: p.gateway_id, gateway_serial: p.serial.to_string(), meter_id };
                Taken::Accepted(events(&message.topic, &p.uplink, &who, now))
            }
        })
        .collect())
}

/// The message's gateway and payload, or why it is rejected.
fn parse(
    message: &Received,
    topic: Result<(SerialNumber, uplink::Kind), Rejection>,
    gateways: &HashMap<String, String>,
    limiter: &RateLimiter,
    now: DateTime<Utc>,
) -> Result<Parsed, Taken> {
    let (serial, kind) = topic.map_err(|rejection| Taken::Rejected(rejection, None))?;
    let Some(gateway_id) = gateways.get(serial.as_str()).cloned() else {
        let rejection = Rejection::unknown_gateway(format!("no gateway is registered with serial {serial}"));
        return Err(Taken::Rejected(rejection, None));
    };
    if !limiter.admit(serial.as_str(), now) {
        let detail = format!("gateway {serial} sent more than its {} uplinks a second", limiter.per_second());
        let rejection = Rejection::new(wm_proto::v1::DeadLetterReason::RateLimited, detail);
        return Err(Taken::Rejected(rejection, Some((gateway_id, serial.to_string()))));
    }
    match uplink::parse(kind, &message.payload, now) {
        Ok(uplink) => Ok(Parsed { gateway_id, serial, uplink }),
        Err(rejection) => Err(Taken::Rejected(rejection, Some((gateway_id, serial.to_string())))),
    }
}

/// The meter the uplink concerns, if any, or an unknown meter's rejection.
async fn resolve(
    tx: &mut Tx,
    parsed: &Parsed,
    meters: &HashMap<MeterRef, String>,
) -> Result<Result<Option<String>, Rejection>, StorageError> {
    Ok(match &parsed.uplink.body {
        // An ack names the command; the command knows its meter.
        Body::Ack { command_id, .. } => Ok(valve_commands::meter_of(tx, command_id).await?),
        body => match meter_of(body) {
            None => Ok(None),
            Some(meter) => match meters.get(meter) {
                Some(id) => Ok(Some(id.clone())),
                None => Err(Rejection::new(
                    wm_proto::v1::DeadLetterReason::UnknownMeter,
                    format!("no meter is registered as {meter:?}"),
                )),
            },
        },
    })
}

/// Claims the message ids of the resolved messages; returns those that
/// were new.
async fn claim(
    tx: &mut Tx,
    resolved: &[Result<(Parsed, Option<String>), Taken>],
    now: DateTime<Utc>,
) -> Result<HashSet<(String, i64, i64)>, StorageError> {
    let claims: Vec<telemetry::Claim> = resolved
        .iter()
        .flatten()
        .filter_map(|(p, _)| p.uplink.message_id.map(|id| (p.gateway_id.as_str(), id, observed_at(p))))
        .collect();
    telemetry::claim(tx, &claims, now.timestamp_micros()).await
}

/// When the gateway observed the uplink, as its claim holds it: a resend
/// carries the same time (µs; 0 without a timestamp).
fn observed_at(parsed: &Parsed) -> i64 {
    parsed.uplink.timestamp.map_or(0, |at| at.timestamp_micros())
}

fn meter_of(body: &Body) -> Option<&MeterRef> {
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
