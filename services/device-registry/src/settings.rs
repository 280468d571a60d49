//! The `devices` settings: when a device counts as online or lost
//! (DESIGN §6).

use std::path::PathBuf;

use chrono::Duration;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct DeviceSettings {
    /// A gateway seen this recently is online even without an MQTT session.
    pub gateway_online_window_secs: u64,
    /// A gateway not seen for this long (or never seen, and registered
    /// longer ago) is lost.
    pub gateway_lost_after_secs: u64,
    /// The same for a meter.
    pub meter_lost_after_secs: u64,
    /// The device CA's certificate (PEM), which signs gateways' client
    /// certificates (docs/device-plane.md). The embedded mode makes the CA
    /// here the first time it is needed.
    pub ca_cert_file: PathBuf,
    /// Its private key (PEM), readable by w-meter alone.
    pub ca_key_file: PathBuf,
}

impl Default for DeviceSettings {
    fn default() -> Self {
        Self {
            gateway_online_window_secs: 600,
            gateway_lost_after_secs: 2 * 3600,
            meter_lost_after_secs: 25 * 3600,
            ca_cert_file: PathBuf::from("data/device-ca.crt"),
            ca_key_file: PathBuf::from("data/device-ca.key"),
        }
    }
}

impl DeviceSettings {
    /// The first invalid key and why, if any.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        let keys = [
            ("devices.gateway_online_window_secs", self.gateway_online_window_secs),
            ("devices.gateway_lost_after_secs", self.gateway_lost_after_secs),
            ("devices.meter_lost_after_secs", self.meter_lost_after_secs),
        ];
        for (key, value) in keys {
            if !(1..=MAX_SECS).contains(&value) {
                return Err((key, format!("{value} is out of range; expected 1 to {MAX_SECS} seconds")));
            }
        }
        Ok(())
    }

    pub fn gateway_online_window(&self) -> Duration {
        seconds(self.gateway_online_window_secs)
    }

    pub fn gateway_lost_after(&self) -> Duration {
        seconds(self.gateway_lost_after_secs)
    }

    pub fn meter_lost_after(&self) -> Duration {
        seconds(self.meter_lost_after_secs)
    }
}

/// Ten years: longer windows are surely a typo.
const MAX_SECS: u64 = 10 * 365 * 24 * 3600;

fn seconds(secs: u64) -> Duration {
    Duration::seconds(i64::try_from(secs.min(MAX_SECS)).unwrap_or(i64::MAX))
}
