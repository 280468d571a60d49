//! Every process follows the auth topic into its token versions, on the
//! embedded log and on Kafka: the versions already there before it starts,
//! and the ones raised while it runs.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

use std::{sync::Arc, time::Duration};

use tokio_util::sync::CancellationToken;
use wm_auth::principals;
use wm_eventlog::{
    EventLog, EventLogSettings,
    embedded::{EmbeddedLog, EmbeddedSettings},
};
use wm_http::auth::Principals;
use wm_proto::{
    Envelope, Payload,
    v1::{UserDisabled, UserLoggedIn, UserRoleChanged},
};
use wm_test_support::{TestDb, log};

const ANN: &str = "65f0a1b2c3d4e5f600000001";
const BOB: &str = "65f0a1b2c3d4e5f600000002";

async fn logs(db: &TestDb) -> Vec<Arc<dyn EventLog>> {
    let mut logs: Vec<Arc<dyn EventLog>> =
        vec![Arc::new(EmbeddedLog::open(db, EmbeddedSettings::default()).await.unwrap())];
    if let Some(kafka) = log::kafka() {
        logs.push(wm_eventlog::open(&EventLogSettings::Kafka(kafka), db).await.unwrap());
    }
    logs
}

fn event(user: &str, payload: Payload) -> Envelope {
    Envelope::new(user, "admin", payload)
}

#[tokio::test]
async fn a_process_reads_the_versions_raised_before_it_and_follows_the_new_ones() {
    let db = TestDb::sqlite().await;
    for log in logs(&db).await {
        log::publish(
            log.as_ref(),
            &[
                event(ANN, Payload::UserDisabled(UserDisabled { user_id: ANN.into(), token_version: 3 })),
                event(ANN, Payload::UserLoggedIn(UserLoggedIn { user_id: ANN.into(), ..Default::default() })),
            ],
        )
        .await;
        let versions = Arc::new(Principals::default());
        let consumer = principals::catch_up(log.as_ref(), &versions).await.unwrap();
        assert!(versions.is_caught_up());
        assert_eq!(versions.version(ANN), 3, "{}: read before serving", log.kind());

        let stop = CancellationToken::new();
        let following = tokio::spawn(principals::follow(consumer, versions.clone(), stop.clone()));
        let started = tokio::time::Instant::now();
        let demoted = UserRoleChanged { user_id: BOB.into(), token_version: 1, ..Default::default() };
        log::publish(log.as_ref(), &[event(BOB, Payload::UserRoleChanged(demoted))]).await;
        while versions.version(BOB) < 1 {
            assert!(started.elapsed() < Duration::from_secs(1), "{}: followed within a second", log.kind());
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        stop.cancel();
        following.await.unwrap();
    }
}
