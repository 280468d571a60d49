//! The notification service on a port of its own, as `wmeter` runs it.

use std::{sync::Arc, time::Duration};

use wm_eventlog::projection::Projection;
use wm_proto::topics;
pub use wm_test_support::eventually;
use wm_test_support::service::{self, Harness, Mount, ServiceApp};

pub type TestApp = ServiceApp;

/// A gateway not heard for this long is lost: the default of
/// `devices.gateway_lost_after_secs`.
const GATEWAY_LOST_AFTER: Duration = Duration::from_secs(2 * 3600);

/// The notification service alone, its streams beating every `heartbeat`,
/// once per database backend, with its projections, its relay, the wake-ups
/// of its streams and the lost-gateway check running.
pub async fn spawn_each(heartbeat: Duration) -> Vec<TestApp> {
    service::spawn_each(async |h: &mut Harness| {
        h.log.ensure_topics(&[topics::NOTIFICATIONS]).await.unwrap();
        h.log.ensure_topics(wm_notification::hints::TOPICS).await.unwrap();
        let (state, relay) =
            wm_notification::build(h.db.clone(), h.log.clone(), h.clock.clone(), GATEWAY_LOST_AFTER, heartbeat);
        let (pushed, checked, log) = (state.get_ref().clone(), state.get_ref().clone(), h.log.clone());
        let (hub, hints_log) = (state.hub.clone(), log.clone());
        h.spawn(|stop| wm_notification::push::run(pushed, log, stop));
        h.spawn(|stop| wm_notification::hints::run(hub, hints_log, stop));
        h.spawn(|stop| wm_notification::lost::run(checked, stop));
        let projections = wm_notification::projections(&state);
        Mount::new(wm_notification::openapi(), move |cfg| wm_notification::configure(state.clone())(cfg))
            .migrations([&wm_eventlog::checkpoint::MIGRATIONS, &wm_notification::MIGRATIONS])
            .projections(projections)
            .relays([relay])
    })
    .await
}

/// The service's projections over `app`'s database and log, for a test
/// that rebuilds them.
pub fn projections(app: &TestApp) -> Vec<Arc<dyn Projection>> {
    let (state, _) = wm_notification::build(
        app.db().clone(),
        app.event_log(),
        app.clock.clone(),
        GATEWAY_LOST_AFTER,
        GATEWAY_LOST_AFTER,
    );
    wm_notification::projections(&state)
}
