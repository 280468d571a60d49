//! What the registry's routes share.

use chrono::{DateTime, Utc};
use wm_domain::DeviceKind;
use wm_eventlog::audit::{self, Attempt};
use wm_http::{ApiError, auth::Caller};
use wm_storage::Db;

use crate::{actions::Actions, settings::DeviceSettings, storage::lists::Filter};

#[derive(Debug)]
pub struct RegistryState {
    pub actions: Actions,
    pub settings: DeviceSettings,
    /// Signs gateways' client certificates.
    pub device_ca: std::sync::Arc<crate::device_ca::DeviceCa>,
}

impl RegistryState {
    pub fn db(&self) -> &Db {
        &self.actions.db
    }

    /// `caller`'s attempt at `action`, for the audit trail.
    pub fn attempt(caller: &Caller, action: &'static str) -> Attempt {
        Attempt::new(&caller.user_id, caller.role.as_str(), caller.source_ip, action)
    }

    /// Passes `result` on, recording it in the audit trail when it is a
    /// refusal. A success was recorded with the change itself.
    pub async fn audited<T>(&self, attempt: &Attempt, result: Result<T, ApiError>) -> Result<T, ApiError> {
        if let Err(e) = &result {
            let (relay, at) = (&self.actions.relay, self.now());
            audit::record_refusal(self.db(), relay, attempt, (e.code, &e.detail()), at).await;
        }
        result
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.actions.clock.now()
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
