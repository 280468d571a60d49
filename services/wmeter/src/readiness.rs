//! The readiness checks behind `/readyz`.

use std::sync::Arc;

use wm_eventlog::{EventLog, membership::Membership};
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

/// The auth topic read to its end: until then, access tokens get 503.
pub struct PrincipalsCheck(pub Arc<wm_http::auth::Principals>);

#[async_trait::async_trait]
impl ReadinessCheck for PrincipalsCheck {
    fn name(&self) -> &'static str {
        "token_versions"
    }

    async fn check(&self) -> Result<(), String> {
        if self.0.is_caught_up() { Ok(()) } else { Err("the auth topic is still being read".to_owned()) }
    }
}

/// Every live projection has joined its consumer group: until then the
/// process would serve tables nobody updates.
pub struct ConsumersCheck(pub Membership);

#[async_trait::async_trait]
impl ReadinessCheck for ConsumersCheck {
    fn name(&self) -> &'static str {
        "consumers"
    }

    async fn check(&self) -> Result<(), String> {
        match self.0.waiting().as_slice() {
            [] => Ok(()),
            waiting => Err(format!("waiting for the group assignment of {}", waiting.join(", "))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_consumers_check_names_the_groups_still_joining() {
        let membership = Membership::default();
        membership.expect("device-registry.state");
        membership.expect("device-registry.devices");
        let check = ConsumersCheck(membership.clone());
        assert_eq!(
            check.check().await,
            Err("waiting for the group assignment of device-registry.devices, device-registry.state".to_owned())
        );
        membership.joined("device-registry.devices");
        membership.joined("device-registry.state");
        assert_eq!(check.check().await, Ok(()));
    }
}
