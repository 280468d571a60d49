//! The auth service on a port of its own, as `wmeter` runs it.

use wm_auth::{SessionSettings, audit::Audit};
use wm_test_support::service::{self, Harness, Mount, ServiceApp};

pub type TestApp = ServiceApp;

/// The auth service alone with `settings`, once per database backend, with
/// its audit-trail projection running.
pub async fn spawn_each(settings: SessionSettings) -> Vec<TestApp> {
    service::spawn_each(async |h: &mut Harness| {
        let audit = Audit::open(h.log.clone()).await.unwrap();
        let state = actix_web::web::Data::new(wm_auth::AuthState::new(h.db.clone(), audit, &settings).await.unwrap());
        Mount::new(wm_auth::openapi(), move |cfg| wm_auth::configure(state.clone())(cfg))
            .migrations([&wm_auth::MIGRATIONS])
            .projections(wm_auth::projections(&h.db))
    })
    .await
}
