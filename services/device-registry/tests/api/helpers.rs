//! The registry on a port of its own, as `wmeter` runs it.

use wm_device_registry::{DeviceSettings, device_ca::DeviceCa};
use wm_proto::topics;
pub use wm_test_support::eventually;
use wm_test_support::service::{self, Harness, Mount, ServiceApp};

pub type TestApp = ServiceApp;

/// The registry alone, once per database backend, with its projections,
/// its outbox relay and the map's counts (five times a second) running.
pub async fn spawn_each() -> Vec<TestApp> {
    service::spawn_each(async |h: &mut Harness| {
        h.log.ensure_topics(&[topics::REGISTRY, topics::AUDIT]).await.unwrap();
        // No device CA: certificates are the wmeter API suite's.
        let settings = (DeviceSettings::default(), std::sync::Arc::new(DeviceCa::absent()));
        let (state, relay) = wm_device_registry::build(h.db.clone(), h.log.clone(), h.clock.clone(), settings);
        let projections = wm_device_registry::projections(&h.db, h.clock.clone());
        let (counted, every) = (state.clone(), std::time::Duration::from_millis(200));
        h.spawn(move |stop| wm_device_registry::map::run(counted, every, stop));
        Mount::new(wm_device_registry::openapi(), move |cfg| wm_device_registry::configure(state.clone())(cfg))
            .migrations([&wm_device_registry::MIGRATIONS])
            .projections(projections)
            .relays([relay])
    })
    .await
}
