//! What an accepted uplink becomes on the event log.

use chrono::{DateTime, Utc};
use uuid::Uuid;
use wm_proto::{
    Envelope, Payload, gateway_actor,
    time::to_timestamp,
    v1::{
        AlertCleared, AlertRaised, BleActivity, CommandAcknowledged, GatewayActivity, GatewayStatusChanged,
        PeripheralDiscovered, ReadingReceived, ShutdownRequested, VolumeUnit,
    },
};

use wm_uplink::{Body, Unit, Uplink};

/// The registered devices an uplink concerns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub gateway_id: String,
    pub gateway_serial: String,
    /// Set when the uplink names a meter.
    pub meter_id: Option<String>,
}

/// The events of one accepted uplink, received at `received_at` on `topic`:
/// a gateway activity for every uplink the gateway sent itself (not its
/// last will), then the kind's own event.
pub fn events(topic: &str, uplink: &Uplink, who: &Resolved, received_at: DateTime<Utc>) -> Vec<Envelope> {
    let occurred_at = uplink.timestamp.unwrap_or(received_at);
    let message_id = uplink.message_id.unwrap_or(0);
    let actor = gateway_actor(&who.gateway_serial);
    let envelope = |device: &str, payload| {
        let mut envelope = Envelope::new(device, actor.clone(), payload).with_occurred_at(occurred_at);
        envelope.recorded_at = Some(to_timestamp(received_at));
        envelope
    };
    let gateway = who.gateway_id.clone();
    let meter = who.meter_id.clone().unwrap_or_default();
    let mut out = Vec::with_capacity(2);
    if !matches!(uplink.body, Body::Status { online: false }) {
        let activity = GatewayActivity {
            gateway_id: gateway.clone(),
            meter_id: who.meter_id.clone(),
            mqtt_topic: topic.to_owned(),
            action: summary(&uplink.body),
            message_id,
        };
        out.push(envelope(&gateway, Payload::GatewayActivity(activity)));
    }
    let own = match &uplink.body {
        Body::Status { online } => Some((
            &gateway,
            Payload::GatewayStatusChanged(GatewayStatusChanged { gateway_id: gateway.clone(), online: *online }),
        )),
        Body::Heartbeat => None,
        Body::Reading { record, unit, .. } => {
            let unit = match unit {
                Unit::Litre => VolumeUnit::Litre,
                Unit::Millilitre => VolumeUnit::Millilitre,
            };
            let reading = ReadingReceived {
                meter_id: meter.clone(),
                gateway_id: gateway.clone(),
                record: *record,
                unit: unit.into(),
                message_id,
            };
            Some((&meter, Payload::ReadingReceived(reading)))
        }
        Body::Ble { rssi, .. } => {
            let ble = BleActivity { gateway_id: gateway.clone(), meter_id: meter.clone(), rssi: *rssi, message_id };
            Some((&meter, Payload::BleActivity(ble)))
        }
        Body::Alert { alert_type, raised: true, .. } => Some((
            &meter,
            Payload::AlertRaised(AlertRaised {
                meter_id: meter.clone(),
                alert_type: alert_type.clone(),
                gateway_id: gateway.clone(),
                message_id,
            }),
        )),
        Body::Alert { alert_type, raised: false, .. } => Some((
            &meter,
            Payload::AlertCleared(AlertCleared {
                meter_id: meter.clone(),
                alert_type: alert_type.clone(),
                gateway_id: gateway.clone(),
                message_id,
            }),
        )),
        Body::Discovery { name, ble_address } => Some((
            &gateway,
            Payload::PeripheralDiscovered(PeripheralDiscovered {
                gateway_id: gateway.clone(),
                device_name: name.clone(),
                ble_address: ble_address.to_string(),
                message_id,
            }),
        )),
        Body::ShutdownRequest { request_id, .. } => {
            let request_id = request_id.clone().unwrap_or_else(|| Uuid::now_v7().to_string());
            let request =
                ShutdownRequested { meter_id: meter.clone(), gateway_id: gateway.clone(), request_id, message_id };
            Some((&meter, Payload::ShutdownRequested(request)))
        }
        Body::Ack { command_id, ok, detail } => Some((
            who.meter_id.as_ref().unwrap_or(&gateway),
            Payload::CommandAcknowledged(CommandAcknowledged {
                command_id: command_id.clone(),
                ok: *ok,
                detail: detail.clone(),
                gateway_id: gateway.clone(),
                message_id,
            }),
        )),
    };
    out.extend(own.map(|(device, payload)| envelope(device, payload)));
    out
}

/// The short summary shown in the activity lists, e.g. `reading 42 L`.
pub fn summary(body: &Body) -> String {
    match body {
        Body::Status { online: true } => "status online".to_owned(),
        Body::Status { online: false } => "status offline".to_owned(),
        Body::Heartbeat => "heartbeat".to_owned(),
        Body::Reading { record, unit: Unit::Litre, .. } => format!("reading {record} L"),
        Body::Reading { record, unit: Unit::Millilitre, .. } => format!("reading {record} mL"),
        Body::Ble { rssi, .. } => format!("ble {rssi} dBm"),
        Body::Alert { alert_type, raised: true, .. } => format!("alert {alert_type} raised"),
        Body::Alert { alert_type, raised: false, .. } => format!("alert {alert_type} cleared"),
        Body::Discovery { ble_address, .. } => format!("discovered {ble_address}"),
        Body::ShutdownRequest { .. } => "shutdown requested".to_owned(),
        Body::Ack { ok: true, .. } => "command acked".to_owned(),
        Body::Ack { ok: false, .. } => "command failed".to_owned(),
    }
}
