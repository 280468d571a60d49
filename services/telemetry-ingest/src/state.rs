//! What the service's routes, ingest and background tasks share.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use wm_domain::Clock;
use wm_eventlog::{
    audit::{self, Attempt},
    outbox::Relay,
};
use wm_http::{ApiError, auth::Caller};
use wm_storage::Db;

use crate::{
    AlarmSettings, AnalyticsSettings, TelemetrySettings, ingest::metrics::IngestMetrics, recent::Recent,
    storage::rollups::Consumer,
};

#[derive(Clone, Debug)]
pub struct IngestState {
    pub db: Db,
    pub relay: Relay,
    /// The gateways whose MQTT credential was revoked: the embedded broker
    /// closes their connections.
    pub revocations: crate::identities::Revocations,
    pub clock: Arc<dyn Clock>,
    pub metrics: IngestMetrics,
    /// Wakes the valve-command dispatcher.
    pub dispatch: Arc<tokio::sync::Notify>,
    /// How long telemetry is kept.
    pub telemetry: TelemetrySettings,
    /// Alarm severities and the valve-command timeout.
    pub alarms: Arc<AlarmSettings>,
    /// The network's time zone, for the rollups' series.
    pub analytics: Arc<AnalyticsSettings>,
    /// Each gateway's uplinks against its rate limit.
    pub rate_limit: Arc<crate::ingest::rate_limit::RateLimiter>,
    /// The top consumers, by (first day, how many), at most a minute old.
    pub top_consumers: Arc<Recent<(i64, i64), Vec<Consumer>>>,
}

impl IngestState {
    pub fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    /// `caller`'s attempt at `action`, for the audit trail.
    pub fn attempt(caller: &Caller, action: &'static str) -> Attempt {
        Attempt::new(&caller.user_id, caller.role.as_str(), caller.source_ip, action)
    }

    /// Passes `result` on, recording it in the audit trail when it is a
    /// refusal. A success was recorded with the change itself.
    pub async fn audited<T>(&self, attempt: &Attempt, result: Result<T, ApiError>) -> Result<T, ApiError> {
        if let Err(e) = &result {
            audit::record_refusal(&self.db, &self.relay, attempt, (e.code, &e.detail()), self.now()).await;
        }
        result
    }
}
