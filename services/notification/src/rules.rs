//! When to notify: a critical alert raised or cleared, a shutdown
//! requested, a gateway gone lost or back. Every active admin and operator
//! (those who may act) gets a notification of their own. Meters do not
//! notify when they go quiet: a silent gateway takes its meters with it,
//! and one notification about the gateway says it all.

use chrono::{DateTime, Utc};
use serde_json::json;
use uuid::Uuid;
use wm_proto::{Envelope, Payload, time::to_timestamp, v1::NotificationCreated};
use wm_storage::{StorageError, Tx};

use crate::storage::{
    directory,
    inbox::{self, Notification},
};

/// Names notifications: one per (source event, user), so a redelivered
/// event notifies nobody twice.
const NAMESPACE: Uuid = Uuid::from_u128(0x8f0c_4d52_6a1e_4b77_9c3a_51d2_0e6f_a931);

/// What a notification is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subject {
    pub device_id: String,
    /// `meter` or `gateway`.
    pub device_kind: &'static str,
    /// The spec's English words for it, e.g. `leak alert`.
    pub event: String,
    pub status: &'static str,
    /// What happened, for a client to word in its language (`alert`,
    /// `shutdown-request`, `gateway-lost`, `gateway-back`)…
    pub kind: &'static str,
    /// …and its parameters, as a JSON object.
    pub params: serde_json::Value,
}

/// The subject of an event worth notifying, if it is one.
pub fn subject(payload: &Payload) -> Option<Subject> {
    let meter = |id: &str, event: String, status, kind, params| Subject {
        device_id: id.to_owned(),
        device_kind: "meter",
        event,
        status,
        kind,
        params,
    };
    let alert = |meter_id: &str, alert_type: &str, status| {
        meter(meter_id, format!("{alert_type} alert"), status, "alert", json!({"type": alert_type}))
    };
    match payload {
        Payload::AlertRaised(a) => Some(alert(&a.meter_id, &a.alert_type, "raised")),
        Payload::AlertCleared(a) => Some(alert(&a.meter_id, &a.alert_type, "cleared")),
        Payload::ShutdownRequested(s) => {
            Some(meter(&s.meter_id, "shutdown request".to_owned(), "requested", "shutdown-request", json!({})))
        }
        _ => None,
    }
}

/// A gateway's silence or return.
pub fn gateway(gateway_id: &str, lost: bool) -> Subject {
    let (event, status, kind) =
        if lost { ("gateway lost", "lost", "gateway-lost") } else { ("gateway back", "online", "gateway-back") };
    Subject {
        device_id: gateway_id.to_owned(),
        device_kind: "gateway",
        event: event.to_owned(),
        status,
        kind,
        params: json!({}),
    }
}

/// Stores a notification about `subject` for every recipient, caused by the
/// event `cause` (its id names them); returns the events to publish, one
/// per notification that is new.
pub async fn notify(
    tx: &mut Tx,
    cause: &str,
    subject: &Subject,
    now: DateTime<Utc>,
) -> Result<Vec<Envelope>, StorageError> {
    let device_name = directory::device_name(tx, &subject.device_id).await?;
    let mut created = Vec::new();
    for user_id in directory::recipients(tx).await? {
        let notification = Notification {
            seq: 0,
            id: Uuid::new_v5(&NAMESPACE, format!("{cause}/{user_id}").as_bytes()).to_string(),
            user_id: user_id.clone(),
            device_name: device_name.clone(),
            device_id: subject.device_id.clone(),
            device_kind: subject.device_kind.to_owned(),
            event: subject.event.clone(),
            status: subject.status.to_owned(),
            kind: subject.kind.to_owned(),
            params: subject.params.to_string(),
            created_at: now.timestamp_micros(),
        };
        if let Some(seq) = inbox::insert(tx, &notification).await? {
            created.push(envelope(Notification { seq, ..notification }, now));
        }
    }
    Ok(created)
}

fn envelope(n: Notification, now: DateTime<Utc>) -> Envelope {
    let device = n.device_id.clone();
    let event = NotificationCreated {
        notification_id: n.id,
        user_id: n.user_id,
        device_name: n.device_name,
        meter_id: n.device_id,
        event: n.event,
        status: n.status,
        created_at: Some(to_timestamp(now)),
        device_kind: n.device_kind,
        seq: n.seq,
        kind: n.kind,
        params_json: n.params,
    };
    Envelope::new(device, format!("service:{}", crate::NAME), Payload::NotificationCreated(event)).with_occurred_at(now)
}

/// Applies a notification event to the table (the rebuild from the log):
/// creations are idempotent, and a dismissal removes only what was created
/// before it, whatever order the rebuild sees them in per user.
pub async fn persist(tx: &mut Tx, envelope: &Envelope) -> Result<(), StorageError> {
    let at = envelope.occurred_at_utc().map_or(i64::MAX, |t| t.timestamp_micros());
    match &envelope.payload {
        Some(Payload::NotificationCreated(n)) => {
            let created_at =
                n.created_at.as_ref().and_then(wm_proto::time::to_datetime).map_or(at, |t| t.timestamp_micros());
            let notification = Notification {
                seq: n.seq,
                id: n.notification_id.clone(),
                user_id: n.user_id.clone(),
                device_name: n.device_name.clone(),
                device_id: n.meter_id.clone(),
                device_kind: n.device_kind.clone(),
                event: n.event.clone(),
                status: n.status.clone(),
                kind: n.kind.clone(),
                params: if n.params_json.is_empty() { "{}".to_owned() } else { n.params_json.clone() },
                created_at,
            };
            inbox::insert(tx, &notification).await?;
        }
        Some(Payload::NotificationDismissed(d)) => {
            inbox::dismiss(tx, &d.user_id, &d.device_name, at).await?;
        }
        Some(Payload::NotificationsCleared(c)) => {
            inbox::clear(tx, &c.user_id, at).await?;
        }
        _ => {}
    }
    Ok(())
}

/// The record key of a notification event: its user.
pub fn user_of(envelope: &Envelope) -> Option<&str> {
    match &envelope.payload {
        Some(Payload::NotificationCreated(n)) => Some(&n.user_id),
        Some(Payload::NotificationDismissed(d)) => Some(&d.user_id),
        Some(Payload::NotificationsCleared(c)) => Some(&c.user_id),
        _ => None,
    }
}
