//! Every event-log topic name, versioned. This is the only place topic names
//! are spelled: producers get a topic from [`for_payload`], consumers
//! subscribe to these constants.

use crate::v1::envelope::Payload;

/// Registry events: gateways and meters registered, updated, deleted.
pub const REGISTRY: &str = "wmeter.registry.v1";
/// Gateway MQTT session up or down (retained status, last will).
pub const GATEWAY_STATUS: &str = "wmeter.telemetry.gateway-status.v1";
/// One row per accepted gateway uplink.
pub const GATEWAY_ACTIVITY: &str = "wmeter.telemetry.gateway-activity.v1";
/// BLE RSSI samples between gateways and meters.
pub const BLE_ACTIVITY: &str = "wmeter.telemetry.ble-activity.v1";
/// Meter consumption records.
pub const READINGS: &str = "wmeter.telemetry.readings.v1";
/// Meter alerts raised and cleared.
pub const ALERTS: &str = "wmeter.telemetry.alerts.v1";
/// BLE peripherals discovered by gateways.
pub const DISCOVERIES: &str = "wmeter.telemetry.discoveries.v1";
/// Shutdown requests and their answers.
pub const SHUTDOWN: &str = "wmeter.shutdown.v1";
/// Valve commands and gateway acknowledgements.
pub const COMMANDS: &str = "wmeter.commands.v1";
/// Alarms raised, acknowledged, assigned, commented, cleared and closed;
/// the meters' own thresholds for the detectors that raise derived alarms.
pub const ALARMS: &str = "wmeter.alarms.v1";
/// Per-user notifications.
pub const NOTIFICATIONS: &str = "wmeter.notifications.v1";
/// Logins, logouts and user changes.
pub const AUTH: &str = "wmeter.auth.v1";
/// The audit trail: operator mutations and refused attempts.
pub const AUDIT: &str = "wmeter.audit.v1";
/// Input that could not be accepted, kept verbatim.
pub const DEAD_LETTERS: &str = "wmeter.dead-letters.v1";

/// Every topic, e.g. for creating them on a Kafka cluster.
pub const ALL: &[&str] = &[
    REGISTRY,
    GATEWAY_STATUS,
    GATEWAY_ACTIVITY,
    BLE_ACTIVITY,
    READINGS,
    ALERTS,
    DISCOVERIES,
    SHUTDOWN,
    COMMANDS,
    ALARMS,
    NOTIFICATIONS,
    AUTH,
    AUDIT,
    DEAD_LETTERS,
];

/// The topics of what gateways send: each record is worth keeping as long
/// as the telemetry tables keep their rows (`telemetry.retention_days`).
/// Every other topic is the history of a state (registry, auth, alarms,
/// commands, notifications, audit) and is kept whole.
pub const TELEMETRY: &[&str] =
    &[GATEWAY_STATUS, GATEWAY_ACTIVITY, BLE_ACTIVITY, READINGS, ALERTS, DISCOVERIES, DEAD_LETTERS];

/// The topic an event with this payload is published on.
///
/// The match is exhaustive on purpose: a new payload variant does not
/// compile until it is given a topic here.
pub fn for_payload(payload: &Payload) -> &'static str {
    match payload {
        Payload::GatewayRegistered(_)
        | Payload::GatewayUpdated(_)
        | Payload::GatewayDeleted(_)
        | Payload::MeterRegistered(_)
        | Payload::MeterUpdated(_)
        | Payload::MeterDeleted(_)
        | Payload::GatewayCredentialIssued(_)
        | Payload::GatewayCredentialRevoked(_) => REGISTRY,
        Payload::GatewayStatusChanged(_) => GATEWAY_STATUS,
        Payload::GatewayActivity(_) => GATEWAY_ACTIVITY,
        Payload::BleActivity(_) => BLE_ACTIVITY,
        Payload::ReadingReceived(_) => READINGS,
        Payload::AlertRaised(_) | Payload::AlertCleared(_) => ALERTS,
        Payload::PeripheralDiscovered(_) => DISCOVERIES,
        Payload::ShutdownRequested(_) | Payload::ShutdownAnswered(_) => SHUTDOWN,
        Payload::ValveCommandIssued(_)
        | Payload::ValveCommandSent(_)
        | Payload::ValveCommandTimedOut(_)
        | Payload::CommandAcknowledged(_) => COMMANDS,
        Payload::AlarmRaised(_)
        | Payload::AlarmAcknowledged(_)
        | Payload::AlarmAssigned(_)
        | Payload::AlarmCommented(_)
        | Payload::AlarmCleared(_)
        | Payload::AlarmClosed(_)
        | Payload::MeterThresholdsSet(_) => ALARMS,
        Payload::NotificationCreated(_) | Payload::NotificationDismissed(_) | Payload::NotificationsCleared(_) => {
            NOTIFICATIONS
        }
        Payload::UserLoggedIn(_)
        | Payload::UserLoggedOut(_)
        | Payload::UserCreated(_)
        | Payload::UserDisabled(_)
        | Payload::UserRoleChanged(_)
        | Payload::RefreshTokenReused(_)
        | Payload::UserEnabled(_)
        | Payload::UserSessionsRevoked(_)
        | Payload::UserPasswordSet(_)
        | Payload::ApiKeyCreated(_)
        | Payload::ApiKeyRevoked(_)
        | Payload::ApiKeyUsed(_) => AUTH,
        Payload::AuditRecorded(_) => AUDIT,
        Payload::DeadLetter(_) => DEAD_LETTERS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn topic_names_are_unique() {
        let unique: HashSet<_> = ALL.iter().collect();
        assert_eq!(unique.len(), ALL.len());
    }

    #[test]
    fn topic_names_are_versioned_and_lower_case() {
        for topic in ALL {
            assert!(topic.starts_with("wmeter."), "{topic}");
            assert!(topic.ends_with(".v1"), "{topic}");
            let allowed = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || ".-".contains(c);
            assert!(topic.chars().all(allowed), "{topic}");
        }
    }
}
