//! What the registry's routes share.

use chrono::{DateTime, Utc};
use wm_domain::DeviceKind;
use wm_storage::Db;

use crate::{commands::Commands, settings::DeviceSettings, storage::lists::Filter};

#[derive(Debug)]
pub struct RegistryState {
    pub commands: Commands,
    pub settings: DeviceSettings,
}

impl RegistryState {
    pub fn db(&self) -> &Db {
        &self.commands.db
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.commands.clock.now()
    }

    /// Devices of `kind` last active before this time (µs) are lost.
    pub fn lost_before(&self, kind: DeviceKind) -> i64 {
        let after = match kind {
            DeviceKind::Gateway => self.settings.gateway_lost_after(),
            DeviceKind::Meter => self.settings.meter_lost_after(),
        };
        (self.now() - after).timestamp_micros()
    }

    /// The lost devices of `kind`, as of now.
    pub fn lost(&self, kind: DeviceKind) -> Filter {
        Filter::Lost { before: self.lost_before(kind) }
    }

    /// Lost, down or critical meters, as of now.
    pub fn unhealthy(&self) -> Filter {
        Filter::Unhealthy { before: self.lost_before(DeviceKind::Meter) }
    }
}
