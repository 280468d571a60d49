//! The readiness checks behind `/readyz`.

use std::sync::Arc;

use wm_eventlog::EventLog;
use wm_http::{chain, health::ReadinessCheck};
use wm_storage::Db;

pub struct DatabaseCheck(pub Db);

#[async_trait::async_trait]
impl ReadinessCheck for DatabaseCheck {
    fn name(&self) -> &'static str {
        "database"
    }

    async fn check(&self) -> Result<(), String> {
        self.0.ping().await.map_err(|e| chain(&e))
    }
}

pub struct EventLogCheck(pub Arc<dyn EventLog>);

#[async_trait::async_trait]
impl ReadinessCheck for EventLogCheck {
    fn name(&self) -> &'static str {
        "event_log"
    }

    async fn check(&self) -> Result<(), String> {
        self.0.ready().await.map_err(|e| chain(&e))
    }
}
