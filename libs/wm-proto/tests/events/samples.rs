//! One populated sample of every payload variant.

use wm_proto::Payload;
use wm_proto::time::to_timestamp;
use wm_proto::v1::*;

const GATEWAY: &str = "65f0a1b2c3d4e5f601234567";
const METER: &str = "65f0a1b2c3d4e5f6abcdef01";
const USER: &str = "65f0a1b2c3d4e5f600000001";

fn at(seconds: i64) -> Option<prost_types::Timestamp> {
    let time = chrono::DateTime::from_timestamp(seconds, 123_456_000).expect("valid time");
    Some(to_timestamp(time))
}

fn gps() -> Option<GpsCoordinates> {
    Some(GpsCoordinates { longitude: 2.294_481, latitude: 48.858_370 })
}

fn registry() -> Vec<Payload> {
    vec![
        Payload::GatewayRegistered(GatewayRegistered {
            id: GATEWAY.into(),
            serial_number: "AB12CD34EF".into(),
            imei: "490154203237518".into(),
            phone_number: "0612345678".into(),
            ble_address: "AA:BB:CC:DD:EE:01".into(),
            mac_address: "AA:BB:CC:DD:EE:02".into(),
            gps: gps(),
            device_name: "GTW-AB12CD34EF".into(),
            registered_at: at(1_750_000_000),
        }),
        Payload::GatewayUpdated(GatewayUpdated {
            id: GATEWAY.into(),
            phone_number: Some("0698765432".into()),
            gps: None,
        }),
        Payload::GatewayDeleted(GatewayDeleted { id: GATEWAY.into() }),
        Payload::MeterRegistered(MeterRegistered {
            id: METER.into(),
            serial_number: "ZX98YW76VU".into(),
            ble_address: "AA:BB:CC:DD:EE:03".into(),
            gps: None,
            device_name: "W-ZX98YW76VU".into(),
            registered_at: at(1_750_000_001),
        }),
        Payload::MeterUpdated(MeterUpdated { id: METER.into(), gps: gps() }),
        Payload::MeterDeleted(MeterDeleted { id: METER.into() }),
        Payload::GatewayCredentialIssued(GatewayCredentialIssued {
            id: "65f0a1b2c3d4e5f6abcdef09".into(),
            gateway_id: GATEWAY.into(),
            serial_number: "A1B2C3D4E5".into(),
            kind: CredentialKind::Secret.into(),
            secret_hash: "$7$101$c2FsdHNhbHRzYWx0$aGFzaA==".into(),
            fingerprint: String::new(),
            expires_at: None,
            issued_at: at(1_764_000_000),
        }),
        Payload::GatewayCredentialRevoked(GatewayCredentialRevoked {
            id: "65f0a1b2c3d4e5f6abcdef09".into(),
            gateway_id: GATEWAY.into(),
            serial_number: "A1B2C3D4E5".into(),
            revoked_at: at(1_764_000_100),
        }),
    ]
}

fn telemetry() -> Vec<Payload> {
    vec![
        Payload::GatewayStatusChanged(GatewayStatusChanged { gateway_id: GATEWAY.into(), online: true }),
        Payload::GatewayActivity(GatewayActivity {
            gateway_id: GATEWAY.into(),
            meter_id: Some(METER.into()),
            mqtt_topic: "wmeter/v1/gw/AB12CD34EF/reading".into(),
            action: "reading 42 L".into(),
            message_id: 7,
        }),
        Payload::BleActivity(BleActivity {
            gateway_id: GATEWAY.into(),
            meter_id: METER.into(),
            rssi: -73,
            message_id: 8,
        }),
        Payload::ReadingReceived(ReadingReceived {
            meter_id: METER.into(),
            gateway_id: GATEWAY.into(),
            record: 42,
            unit: VolumeUnit::Litre.into(),
            message_id: u64::MAX,
        }),
        Payload::AlertRaised(AlertRaised {
            meter_id: METER.into(),
            alert_type: "leak".into(),
            gateway_id: GATEWAY.into(),
            message_id: 9,
        }),
        Payload::AlertCleared(AlertCleared {
            meter_id: METER.into(),
            alert_type: "leak".into(),
            gateway_id: GATEWAY.into(),
            message_id: 10,
        }),
        Payload::PeripheralDiscovered(PeripheralDiscovered {
            gateway_id: GATEWAY.into(),
            device_name: "W-ZX98YW76VU".into(),
            ble_address: "AA:BB:CC:DD:EE:03".into(),
            message_id: 11,
        }),
    ]
}

fn shutdown_and_commands() -> Vec<Payload> {
    vec![
        Payload::ShutdownRequested(ShutdownRequested {
            meter_id: METER.into(),
            gateway_id: GATEWAY.into(),
            request_id: "req-1".into(),
            message_id: 12,
        }),
        Payload::ShutdownAnswered(ShutdownAnswered {
            meter_id: METER.into(),
            request_id: "req-1".into(),
            status: ShutdownAnswerStatus::Confirmed.into(),
            answered_by: USER.into(),
        }),
        Payload::ValveCommandIssued(ValveCommandIssued {
            command_id: "cmd-1".into(),
            gateway_serial: "AB12CD34EF".into(),
            meter_id: METER.into(),
            meter_ble_address: "AA:BB:CC:DD:EE:03".into(),
            action: ValveAction::Close.into(),
            request_id: Some("req-1".into()),
            resend_of: Some("cmd-0".into()),
        }),
        Payload::ValveCommandSent(ValveCommandSent { command_id: "cmd-1".into(), meter_id: METER.into() }),
        Payload::ValveCommandTimedOut(ValveCommandTimedOut { command_id: "cmd-0".into(), meter_id: METER.into() }),
        Payload::CommandAcknowledged(CommandAcknowledged {
            command_id: "cmd-1".into(),
            ok: false,
            detail: "valve stuck".into(),
            gateway_id: GATEWAY.into(),
            message_id: 13,
        }),
    ]
}

fn notifications_and_auth() -> Vec<Payload> {
    vec![
        Payload::NotificationCreated(NotificationCreated {
            notification_id: "n-1".into(),
            user_id: USER.into(),
            device_name: "W-ZX98YW76VU".into(),
            meter_id: METER.into(),
            event: "leak alert".into(),
            status: "raised".into(),
            created_at: at(1_750_000_002),
            device_kind: "meter".into(),
            seq: 42,
            kind: "alert".into(),
            params_json: r#"{"type":"leak"}"#.into(),
        }),
        Payload::NotificationDismissed(NotificationDismissed {
            user_id: USER.into(),
            device_name: "W-ZX98YW76VU".into(),
        }),
        Payload::NotificationsCleared(NotificationsCleared { user_id: USER.into() }),
        Payload::UserLoggedIn(UserLoggedIn {
            user_id: USER.into(),
            username: "ada".into(),
            source_ip: "192.0.2.7".into(),
        }),
        Payload::UserLoggedOut(UserLoggedOut { user_id: USER.into(), source_ip: "2001:db8::7".into() }),
        Payload::UserCreated(UserCreated { user_id: USER.into(), username: "ada".into(), role: Role::Operator.into() }),
        Payload::UserDisabled(UserDisabled { user_id: USER.into(), token_version: 4 }),
        Payload::UserRoleChanged(UserRoleChanged {
            user_id: USER.into(),
            previous_role: Role::Operator.into(),
            role: Role::Admin.into(),
            token_version: 3,
        }),
        Payload::UserEnabled(UserEnabled { user_id: USER.into(), token_version: 5 }),
        Payload::UserSessionsRevoked(UserSessionsRevoked { user_id: USER.into(), token_version: 6 }),
        Payload::UserPasswordSet(UserPasswordSet { user_id: USER.into(), token_version: 7, must_change: true }),
        Payload::ApiKeyCreated(ApiKeyCreated {
            key_id: "65f0a1b2c3d4e5f600000009".into(),
            name: "billing".into(),
            role: Role::Viewer.into(),
            prefix: "wmk_3fq8k2ma".into(),
            key_digest: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08".into(),
            expires_at: at(1_760_000_000),
            created_by: USER.into(),
        }),
        Payload::ApiKeyRevoked(ApiKeyRevoked { key_id: "65f0a1b2c3d4e5f600000009".into() }),
        Payload::ApiKeyUsed(ApiKeyUsed {
            key_id: "65f0a1b2c3d4e5f600000009".into(),
            used_at: at(1_750_000_009),
            source_ip: "192.0.2.9".into(),
        }),
        Payload::RefreshTokenReused(RefreshTokenReused {
            user_id: USER.into(),
            family_id: "65f0a1b2c3d4e5f600000002".into(),
            source_ip: "192.0.2.8".into(),
        }),
        Payload::AuditRecorded(AuditRecorded {
            action: "meter.edit".into(),
            target_id: METER.into(),
            role: "operator".into(),
            source_ip: "192.0.2.8".into(),
            before_json: r#"{"lat":43.6}"#.into(),
            after_json: r#"{"lat":43.7}"#.into(),
            outcome: "ok".into(),
            detail: String::new(),
        }),
    ]
}

fn alarms() -> Vec<Payload> {
    const ALARM: &str = "3f2a9c1b0d4e5f6a7b8c9d0e";
    vec![
        Payload::AlarmRaised(AlarmRaised {
            alarm_id: ALARM.into(),
            device_id: METER.into(),
            device_kind: AlarmDeviceKind::Meter.into(),
            alarm_type: "leak".into(),
            severity: AlarmSeverity::Critical.into(),
            details_json: r#"{"gateway":"AB12CD34EF"}"#.into(),
        }),
        Payload::AlarmAcknowledged(AlarmAcknowledged { alarm_id: ALARM.into(), note: "crew sent".into() }),
        Payload::AlarmAssigned(AlarmAssigned { alarm_id: ALARM.into(), assignee: USER.into() }),
        Payload::AlarmCommented(AlarmCommented { alarm_id: ALARM.into(), text: "valve replaced".into() }),
        Payload::AlarmCleared(AlarmCleared { alarm_id: ALARM.into(), note: "dry".into() }),
        Payload::AlarmClosed(AlarmClosed { alarm_id: ALARM.into(), note: "billed".into() }),
        Payload::MeterThresholdsSet(MeterThresholdsSet {
            meter_id: METER.into(),
            continuous_flow_hours: Some(12),
            night_flow_ml: Some(2_500),
            burst_ml: None,
            stuck_days: Some(14),
        }),
    ]
}

fn dead_letters() -> Vec<Payload> {
    vec![Payload::DeadLetter(DeadLetter {
        raw_topic: "wmeter/v1/gw/UNKNOWN123/reading".into(),
        raw_payload: vec![0x7b, 0x00, 0xff, 0x7d],
        reason: DeadLetterReason::UnknownGateway.into(),
        detail: "no gateway with serial UNKNOWN123".into(),
        received_at: at(1_750_000_003),
    })]
}

/// Every payload variant, each populated with non-default values.
pub fn all() -> Vec<Payload> {
    [registry(), telemetry(), shutdown_and_commands(), notifications_and_auth(), alarms(), dead_letters()]
        .into_iter()
        .flatten()
        .collect()
}
