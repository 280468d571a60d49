//! Helpers on the generated [`Payload`] enum.

use crate::topics;
use crate::v1::envelope::Payload;

impl Payload {
    /// The topic this event is published on; see [`topics::for_payload`].
    pub fn topic(&self) -> &'static str {
        topics::for_payload(self)
    }

    /// The event's message name, e.g. `"ReadingReceived"`: a stable,
    /// low-cardinality label for logs and metrics.
    pub fn name(&self) -> &'static str {
        match self {
            Payload::GatewayRegistered(_) => "GatewayRegistered",
            Payload::GatewayUpdated(_) => "GatewayUpdated",
            Payload::GatewayDeleted(_) => "GatewayDeleted",
            Payload::MeterRegistered(_) => "MeterRegistered",
            Payload::MeterUpdated(_) => "MeterUpdated",
            Payload::MeterDeleted(_) => "MeterDeleted",
            Payload::GatewayCredentialIssued(_) => "GatewayCredentialIssued",
            Payload::GatewayCredentialRevoked(_) => "GatewayCredentialRevoked",
            Payload::GatewayStatusChanged(_) => "GatewayStatusChanged",
            Payload::GatewayActivity(_) => "GatewayActivity",
            Payload::BleActivity(_) => "BleActivity",
            Payload::ReadingReceived(_) => "ReadingReceived",
            Payload::AlertRaised(_) => "AlertRaised",
            Payload::AlertCleared(_) => "AlertCleared",
            Payload::PeripheralDiscovered(_) => "PeripheralDiscovered",
            Payload::ShutdownRequested(_) => "ShutdownRequested",
            Payload::ShutdownAnswered(_) => "ShutdownAnswered",
            Payload::ValveCommandIssued(_) => "ValveCommandIssued",
            Payload::ValveCommandSent(_) => "ValveCommandSent",
            Payload::ValveCommandTimedOut(_) => "ValveCommandTimedOut",
            Payload::CommandAcknowledged(_) => "CommandAcknowledged",
            Payload::NotificationCreated(_) => "NotificationCreated",
            Payload::NotificationDismissed(_) => "NotificationDismissed",
            Payload::NotificationsCleared(_) => "NotificationsCleared",
            Payload::UserLoggedIn(_) => "UserLoggedIn",
            Payload::UserLoggedOut(_) => "UserLoggedOut",
            Payload::UserCreated(_) => "UserCreated",
            Payload::UserDisabled(_) => "UserDisabled",
            Payload::UserRoleChanged(_) => "UserRoleChanged",
            Payload::RefreshTokenReused(_) => "RefreshTokenReused",
            Payload::UserEnabled(_) => "UserEnabled",
            Payload::UserSessionsRevoked(_) => "UserSessionsRevoked",
            Payload::UserPasswordSet(_) => "UserPasswordSet",
            Payload::ApiKeyCreated(_) => "ApiKeyCreated",
            Payload::ApiKeyRevoked(_) => "ApiKeyRevoked",
            Payload::ApiKeyUsed(_) => "ApiKeyUsed",
            Payload::AuditRecorded(_) => "AuditRecorded",
            Payload::AlarmRaised(_) => "AlarmRaised",
            Payload::AlarmAcknowledged(_) => "AlarmAcknowledged",
            Payload::AlarmAssigned(_) => "AlarmAssigned",
            Payload::AlarmCommented(_) => "AlarmCommented",
            Payload::AlarmCleared(_) => "AlarmCleared",
            Payload::AlarmClosed(_) => "AlarmClosed",
            Payload::MeterThresholdsSet(_) => "MeterThresholdsSet",
            Payload::DeadLetter(_) => "DeadLetter",
        }
    }
}

impl crate::v1::Role {
    /// The word services store a user's role as: `admin`, `operator` or
    /// `viewer` (an unspecified role is the least: viewer).
    pub fn word(self) -> &'static str {
        match self {
            crate::v1::Role::Admin => "admin",
            crate::v1::Role::Operator => "operator",
            crate::v1::Role::Viewer | crate::v1::Role::Unspecified => "viewer",
        }
    }
}

impl crate::v1::ReadingReceived {
    /// The record's volume in millilitres (a record without a unit is in
    /// litres, the uplink's default).
    pub fn millilitres(&self) -> i64 {
        let per_unit = if self.unit() == crate::v1::VolumeUnit::Millilitre { 1 } else { 1000 };
        i64::try_from(self.record).unwrap_or(i64::MAX).saturating_mul(per_unit)
    }
}
