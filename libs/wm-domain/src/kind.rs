//! The two kinds of device and their display prefixes.

use serde::{Deserialize, Serialize};

use crate::SerialNumber;

/// A gateway or a water meter.
///
/// Serializes as `"gateway"` or `"meter"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DeviceKind {
    /// A gateway: shown as `GTW-{serial}`.
    Gateway,
    /// A water meter: shown as `W-{serial}`.
    Meter,
}

impl DeviceKind {
    /// The display prefix put before a serial number: `"GTW-"` or `"W-"`.
    pub const fn prefix(self) -> &'static str {
        match self {
            Self::Gateway => "GTW-",
            Self::Meter => "W-",
        }
    }

    /// The device name shown for a serial number, e.g. `GTW-ABC1234567`.
    pub fn display_name(self, serial: &SerialNumber) -> String {
        format!("{}{}", self.prefix(), serial)
    }

    /// `s` without this kind's prefix, matched case-insensitively; `s` itself
    /// when it has no such prefix.
    pub fn strip_prefix(self, s: &str) -> &str {
        let prefix = self.prefix();
        match (s.get(..prefix.len()), s.get(prefix.len()..)) {
            (Some(head), Some(rest)) if head.eq_ignore_ascii_case(prefix) => rest,
            _ => s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_match_the_spec() {
        assert_eq!(DeviceKind::Gateway.prefix(), "GTW-");
        assert_eq!(DeviceKind::Meter.prefix(), "W-");
    }

    #[test]
    fn display_name_puts_the_prefix_before_the_serial() {
        // Given a serial number
        let serial = SerialNumber::parse("abc1234567").unwrap();
        // When it is shown for each kind
        // Then the kind's prefix precedes the canonical serial
        assert_eq!(DeviceKind::Gateway.display_name(&serial), "GTW-ABC1234567");
        assert_eq!(DeviceKind::Meter.display_name(&serial), "W-ABC1234567");
    }

    #[test]
    fn strip_prefix_ignores_case_and_leaves_other_text_alone() {
        assert_eq!(DeviceKind::Gateway.strip_prefix("gtw-ABC"), "ABC");
        assert_eq!(DeviceKind::Meter.strip_prefix("w-ABC"), "ABC");
        assert_eq!(DeviceKind::Meter.strip_prefix("GTW-ABC"), "GTW-ABC");
        assert_eq!(DeviceKind::Gateway.strip_prefix("GT"), "GT");
        // A multi-byte character across the prefix boundary must not panic.
        assert_eq!(DeviceKind::Gateway.strip_prefix("GTWé"), "GTWé");
    }

    #[test]
    fn serializes_in_lower_case() {
        let json = serde_json::to_string(&DeviceKind::Meter).unwrap();
        assert_eq!(json, "\"meter\"");
        let back: DeviceKind = serde_json::from_str("\"gateway\"").unwrap();
        assert_eq!(back, DeviceKind::Gateway);
    }
}
