//! Uplink payloads: one strict JSON shape per kind (unknown fields are
//! refused), checked for plausibility against the receiving clock.

use chrono::{DateTime, Duration, Utc};
use serde::Deserialize;
use serde_json::Value;
use wm_domain::{BleAddress, DeviceKind, SerialNumber};
use wm_proto::v1::DeadLetterReason;

use super::{Kind, Rejection};

/// The largest payload accepted (docs/mqtt.md).
pub const MAX_PAYLOAD_BYTES: usize = 64 * 1024;
/// How far ahead of the receiving clock a gateway's timestamp may be.
const MAX_CLOCK_AHEAD: Duration = Duration::days(1);

/// A parsed uplink.
#[derive(Clone, Debug, PartialEq)]
pub struct Uplink {
    /// The gateway's message id; absent only on a status (the last will).
    pub message_id: Option<u64>,
    /// When the gateway observed it; absent only on a status.
    pub timestamp: Option<DateTime<Utc>>,
    pub body: Body,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    Status { online: bool },
    Heartbeat,
    Reading { meter: MeterRef, record: u64, unit: Unit },
    Ble { meter: MeterRef, rssi: i32 },
    Alert { meter: MeterRef, alert_type: String, raised: bool },
    Discovery { name: String, ble_address: BleAddress },
    ShutdownRequest { meter: MeterRef, request_id: Option<String> },
    Ack { command_id: String, ok: bool, detail: String },
}

/// How an uplink names a meter.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MeterRef {
    Ble(BleAddress),
    Serial(SerialNumber),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Litre,
    Millilitre,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Status {
    status: String,
    message_id: Option<u64>,
    timestamp: Option<String>,
}

/// The fields every uplink but a status has; the kind's own fields are in
/// `rest`, checked strictly by the kind's struct.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Common {
    message_id: u64,
    timestamp: String,
    #[serde(flatten)]
    rest: serde_json::Map<String, Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Reading {
    meter: String,
    record: u64,
    unit: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Ble {
    meter: String,
    rssi: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Alert {
    meter: String,
    #[serde(rename = "type")]
    alert_type: String,
    state: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Discovery {
    name: String,
    ble_address: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ShutdownRequest {
    meter: String,
    request_id: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Ack {
    command_id: String,
    ok: bool,
    detail: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Nothing {}

/// Parses the payload of a `kind` uplink received at `now`.
pub fn parse(kind: Kind, bytes: &[u8], now: DateTime<Utc>) -> Result<Uplink, Rejection> {
    if bytes.len() > MAX_PAYLOAD_BYTES {
        let detail = format!("{} bytes; at most {MAX_PAYLOAD_BYTES}", bytes.len());
        return Err(Rejection::new(DeadLetterReason::PayloadTooLarge, detail));
    }
    if kind == Kind::Status {
        let status: Status = json(bytes)?;
        let online = match status.status.as_str() {
            "online" => true,
            "offline" => false,
            other => return Err(Rejection::malformed(format!("status must be online or offline, not {other:?}"))),
        };
        let timestamp = status.timestamp.as_deref().map(|t| timestamp(t, now)).transpose()?;
        return Ok(Uplink { message_id: status.message_id, timestamp, body: Body::Status { online } });
    }
    let common: Common = json(bytes)?;
    if common.message_id == 0 {
        return Err(Rejection::malformed("messageId must be a positive integer"));
    }
    let rest = Value::Object(common.rest);
    let body = match kind {
        Kind::Status | Kind::Heartbeat => {
            let Nothing {} = fields(rest)?;
            Body::Heartbeat
        }
        Kind::Reading => {
            let r: Reading = fields(rest)?;
            let unit = match r.unit.as_str() {
                "L" => Unit::Litre,
                "mL" => Unit::Millilitre,
                other => return Err(Rejection::malformed(format!("unit must be L or mL, not {other:?}"))),
            };
            Body::Reading { meter: meter(&r.meter)?, record: r.record, unit }
        }
        Kind::Ble => {
            let b: Ble = fields(rest)?;
            let rssi = i32::try_from(b.rssi)
                .ok()
                .filter(|r| (-127..=20).contains(r))
                .ok_or_else(|| Rejection::out_of_range(format!("rssi {} dBm is outside -127 to 20", b.rssi)))?;
            Body::Ble { meter: meter(&b.meter)?, rssi }
        }
        Kind::Alert => {
            let a: Alert = fields(rest)?;
            let raised = match a.state.as_str() {
                "raised" => true,
                "cleared" => false,
                other => return Err(Rejection::malformed(format!("state must be raised or cleared, not {other:?}"))),
            };
            let word = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-';
            if a.alert_type.is_empty() || a.alert_type.len() > 32 || !a.alert_type.chars().all(word) {
                return Err(Rejection::malformed(format!(
                    "alert type {:?} is not a short lower-case word",
                    a.alert_type
                )));
            }
            Body::Alert { meter: meter(&a.meter)?, alert_type: a.alert_type, raised }
        }
        Kind::Discovery => {
            let d: Discovery = fields(rest)?;
            if d.name.chars().count() > 64 || d.name.chars().any(char::is_control) {
                return Err(Rejection::malformed("name must be at most 64 printable characters"));
            }
            let ble_address =
                wm_domain::normalize_loose(&d.ble_address).and_then(|a| BleAddress::parse(&a).ok()).ok_or_else(
                    || Rejection::malformed(format!("bleAddress {:?} is not XX:XX:XX:XX:XX:XX", d.ble_address)),
                )?;
            Body::Discovery { name: d.name, ble_address }
        }
        Kind::ShutdownRequest => {
            let s: ShutdownRequest = fields(rest)?;
            if s.request_id.as_ref().is_some_and(|r| !short_text(r, 64)) {
                return Err(Rejection::malformed("requestId must be 1 to 64 printable characters"));
            }
            Body::ShutdownRequest { meter: meter(&s.meter)?, request_id: s.request_id }
        }
        Kind::Ack => {
            let a: Ack = fields(rest)?;
            let detail = a.detail.unwrap_or_default();
            if !short_text(&a.command_id, 64) || detail.chars().count() > 256 {
                return Err(Rejection::malformed("commandId must be 1 to 64 characters, detail at most 256"));
            }
            Body::Ack { command_id: a.command_id, ok: a.ok, detail }
        }
    };
    Ok(Uplink { message_id: Some(common.message_id), timestamp: Some(timestamp(&common.timestamp, now)?), body })
}

fn json<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, Rejection> {
    serde_json::from_slice(bytes).map_err(|e| Rejection::malformed(e.to_string()))
}

fn fields<T: serde::de::DeserializeOwned>(rest: Value) -> Result<T, Rejection> {
    serde_json::from_value(rest).map_err(|e| Rejection::malformed(e.to_string()))
}

fn short_text(s: &str, max: usize) -> bool {
    !s.is_empty() && s.chars().count() <= max && !s.chars().any(char::is_control)
}

fn timestamp(s: &str, now: DateTime<Utc>) -> Result<DateTime<Utc>, Rejection> {
    let at = DateTime::parse_from_rfc3339(s)
        .map_err(|e| Rejection::malformed(format!("timestamp {s:?} is not RFC 3339: {e}")))?
        .with_timezone(&Utc);
    if at > now + MAX_CLOCK_AHEAD {
        return Err(Rejection::out_of_range(format!("timestamp {s} is more than a day ahead of {now}")));
    }
    Ok(at)
}

/// A meter named by its BLE address (colons optional) or serial (with or
/// without `W-`).
fn meter(s: &str) -> Result<MeterRef, Rejection> {
    if let Some(ble) = wm_domain::normalize_loose(s).and_then(|a| BleAddress::parse(&a).ok()) {
        return Ok(MeterRef::Ble(ble));
    }
    SerialNumber::parse_with_prefix(s, DeviceKind::Meter)
        .map(MeterRef::Serial)
        .map_err(|_| Rejection::malformed(format!("meter {s:?} is neither a BLE address nor a serial number")))
}

#[cfg(test)]
mod tests;
