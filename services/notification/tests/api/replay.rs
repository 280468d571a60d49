//! Rebuilding the directory while the service runs (`wmeter replay`).

use std::time::Duration;

use wm_eventlog::{
    envelopes::decode,
    projection::{self, Effects, RunOptions},
};
use wm_proto::{Envelope, Payload, topics, v1::GatewayDeleted};
use wm_storage::with_pool;
use wm_test_support::devices::gateway_registered;

use crate::helpers::{TestApp, eventually, projections, spawn_each};

/// The name the directory holds for `device`, if any.
async fn named(app: &TestApp, device: &str) -> Option<String> {
    let sql = "SELECT device_name FROM notification_devices WHERE device_id = $1";
    with_pool!(app.db(), pool => sqlx::query_scalar(sql).bind(device).fetch_optional(pool).await).unwrap()
}

/// A live batch that comes between the rebuild's reset and its end is
/// refused and retried after: applied before the rebuild reached the older
/// events, a gateway deleted meanwhile would come back with them.
#[tokio::test]
async fn a_live_directory_batch_waits_for_a_rebuild_under_way() {
    for app in spawn_each(Duration::from_secs(30)).await {
        let (gateway, registered) = gateway_registered(1);
        app.publish(&[registered]).await;
        eventually("the gateway is named", || async { named(&app, &gateway).await }).await;
        let directory = projections(&app).into_iter().find(|p| p.name() == "notification.directory").unwrap();

        directory.reset().await.unwrap();
        let deleted = GatewayDeleted { id: gateway.clone() };
        app.publish(&[Envelope::new(&gateway, "test-user", Payload::GatewayDeleted(deleted))]).await;
        let log = app.event_log();
        let mut records = wm_test_support::log::records(log.as_ref(), topics::REGISTRY).await;
        records.retain(|r| decode(r).is_some_and(|e| matches!(e.payload, Some(Payload::GatewayDeleted(_)))));
        assert_eq!(records.len(), 1);
        wm_test_support::log::assert_held_for_rebuild(directory.as_ref(), &records).await;

        projection::rebuild(log.as_ref(), directory.as_ref(), RunOptions::default()).await.unwrap();
        assert_eq!(named(&app, &gateway).await, None, "the rebuild applied the deletion after the registration");
        directory.apply(&records, Effects::Live).await.unwrap();
        assert_eq!(named(&app, &gateway).await, None, "the retried batch changed nothing");

        // The running projection goes on after the rebuild.
        let (next, registered) = gateway_registered(2);
        app.publish(&[registered]).await;
        let name = eventually("the next gateway is named", || async { named(&app, &next).await }).await;
        assert_eq!(name, "GTW-GW00000002");
        assert_eq!(named(&app, &gateway).await, None, "the deleted gateway stays deleted");
    }
}
