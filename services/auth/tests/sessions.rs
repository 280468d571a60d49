//! Refresh-token families on SQLite and PostgreSQL alike.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

use std::{sync::Arc, time::Duration};

use chrono::{DateTime, Utc};
use wm_auth::{
    MIGRATIONS,
    audit::{Audit, CLI_ACTOR},
    storage::sessions::{self, Family, Rejection, SessionPolicy},
    users,
};
use wm_eventlog::{
    EventLog,
    embedded::{EmbeddedLog, EmbeddedSettings},
};
use wm_http::auth::Role;
use wm_proto::{Envelope, Payload, topics};
use wm_test_support::TestDb;

const POLICY: SessionPolicy =
    SessionPolicy { lifetime: Duration::from_secs(3600), reuse_grace: Duration::from_secs(10) };

/// Each backend with one user, and that user's id.
async fn databases() -> Vec<(TestDb, String)> {
    let mut out = Vec::new();
    for db in TestDb::each().await {
        db.migrate(&MIGRATIONS).await.unwrap();
        let user = users::create(&db, "ann", "password-ann", Role::Operator).await.unwrap();
        out.push((db, user.id));
    }
    out
}

fn at(secs: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(1_800_000_000 + secs, 0).unwrap()
}

#[tokio::test]
async fn rotation_hands_out_successors_in_the_same_family() {
    for (db, user) in databases().await {
        let first = sessions::start(&db, &user, POLICY, at(0)).await.unwrap();
        let second = sessions::rotate(&db, &first.token, POLICY, at(60)).await.unwrap().unwrap();
        assert_ne!(second.token, first.token);
        assert_eq!((second.family_id.as_str(), second.user_id.as_str()), (first.family_id.as_str(), user.as_str()));
        let third = sessions::rotate(&db, &second.token, POLICY, at(120)).await.unwrap().unwrap();
        assert_eq!(third.family_id, first.family_id);
    }
}

#[tokio::test]
async fn two_tabs_refreshing_together_both_survive() {
    for (db, user) in databases().await {
        let first = sessions::start(&db, &user, POLICY, at(0)).await.unwrap();
        let tab_a = sessions::rotate(&db, &first.token, POLICY, at(60)).await.unwrap();
        let tab_b = sessions::rotate(&db, &first.token, POLICY, at(65)).await.unwrap();
        let (a, b) = (tab_a.unwrap(), tab_b.unwrap());
        assert!(sessions::rotate(&db, &a.token, POLICY, at(70)).await.unwrap().is_ok());
        assert!(sessions::rotate(&db, &b.token, POLICY, at(70)).await.unwrap().is_ok());
    }
}

#[tokio::test]
async fn reuse_after_the_grace_window_revokes_the_whole_family() {
    for (db, user) in databases().await {
        let first = sessions::start(&db, &user, POLICY, at(0)).await.unwrap();
        let second = sessions::rotate(&db, &first.token, POLICY, at(60)).await.unwrap().unwrap();
        let replay = sessions::rotate(&db, &first.token, POLICY, at(100)).await.unwrap();
        let family = Family { family_id: first.family_id.clone(), user_id: user.clone() };
        assert_eq!(replay, Err(Rejection::Reused(family)), "{:?}", db.backend());
        let after = sessions::rotate(&db, &second.token, POLICY, at(101)).await.unwrap();
        assert_eq!(after, Err(Rejection::Revoked), "the thief's successor is dead too");
    }
}

#[tokio::test]
async fn replaying_within_the_grace_window_fails_once_the_family_moved_on() {
    for (db, user) in databases().await {
        let first = sessions::start(&db, &user, POLICY, at(0)).await.unwrap();
        let second = sessions::rotate(&db, &first.token, POLICY, at(1)).await.unwrap().unwrap();
        let third = sessions::rotate(&db, &second.token, POLICY, at(2)).await.unwrap().unwrap();
        let replay = sessions::rotate(&db, &first.token, POLICY, at(3)).await.unwrap();
        assert!(matches!(replay, Err(Rejection::Reused(f)) if f.family_id == first.family_id));
        assert_eq!(sessions::rotate(&db, &third.token, POLICY, at(4)).await.unwrap(), Err(Rejection::Revoked));
    }
}

#[tokio::test]
async fn unknown_and_expired_tokens_are_refused() {
    for (db, user) in databases().await {
        assert_eq!(sessions::rotate(&db, "no-such-token", POLICY, at(0)).await.unwrap(), Err(Rejection::Unknown));
        let first = sessions::start(&db, &user, POLICY, at(0)).await.unwrap();
        assert_eq!(sessions::rotate(&db, &first.token, POLICY, at(3600)).await.unwrap(), Err(Rejection::Expired));
    }
}

#[tokio::test]
async fn logout_and_disabling_end_sessions() {
    for (db, user) in databases().await {
        let phone = sessions::start(&db, &user, POLICY, at(0)).await.unwrap();
        let laptop = sessions::start(&db, &user, POLICY, at(0)).await.unwrap();
        let ended = sessions::end(&db, &phone.token, at(1)).await.unwrap();
        assert_eq!(ended, Some(Family { family_id: phone.family_id.clone(), user_id: user.clone() }));
        assert_eq!(sessions::end(&db, "no-such-token", at(1)).await.unwrap(), None);
        assert_eq!(sessions::rotate(&db, &phone.token, POLICY, at(2)).await.unwrap(), Err(Rejection::Revoked));
        assert!(sessions::rotate(&db, &laptop.token, POLICY, at(2)).await.unwrap().is_ok(), "other sessions live on");

        let revoked = sessions::end_all(&db, &user, at(3)).await.unwrap();
        assert!(revoked >= 1);
        let laptop_next = sessions::start(&db, &user, POLICY, at(4)).await.unwrap();
        assert!(sessions::rotate(&db, &laptop_next.token, POLICY, at(5)).await.unwrap().is_ok());
    }
}

#[tokio::test]
async fn only_hashes_are_stored() {
    for (db, user) in databases().await {
        let issued = sessions::start(&db, &user, POLICY, at(0)).await.unwrap();
        assert!(issued.token.len() >= 43, "32 random bytes");
        let stored: Vec<String> = wm_storage::with_pool!(db.db(), pool =>
            sqlx::query_scalar("SELECT token_hash FROM refresh_tokens").fetch_all(pool).await)
        .unwrap();
        assert_eq!(stored.len(), 1);
        assert_ne!(stored[0], issued.token);
        assert_eq!(stored[0].len(), 64, "a SHA-256 hex digest");
    }
}

#[tokio::test]
async fn disabling_an_account_revokes_its_sessions_and_is_recorded() {
    let log_db = TestDb::sqlite().await;
    let log: Arc<dyn EventLog> = Arc::new(EmbeddedLog::open(&log_db, EmbeddedSettings::default()).await.unwrap());
    let audit = Audit::open(log.clone()).await.unwrap();
    for (db, user) in databases().await {
        let session = sessions::start(&db, &user, POLICY, Utc::now()).await.unwrap();
        let cli = wm_auth::actions::Actor::local(CLI_ACTOR);
        let disabled = wm_auth::actions::disable_named(&db, &audit, &cli, "ANN").await.unwrap();
        assert!(disabled.disabled);
        assert_eq!(disabled.token_version, 1, "her access tokens are refused from now on");
        let refresh = sessions::rotate(&db, &session.token, POLICY, Utc::now()).await.unwrap();
        assert_eq!(refresh, Err(Rejection::Revoked));
    }
    let mut replay = log.replay(&[topics::AUTH]).await.unwrap();
    let records = replay.poll(10, Duration::from_secs(5)).await.unwrap();
    assert!(!records.is_empty());
    for record in records {
        let event = Envelope::from_bytes(&record.payload).unwrap();
        assert_eq!(event.actor, CLI_ACTOR);
        assert!(
            matches!(event.payload, Some(Payload::UserDisabled(d)) if d.user_id == event.device_id && d.token_version == 1)
        );
    }
}

/// Under ingest the SQLite writer is held most of the time. A login's
/// write waits for its turn at the writer for as long as that takes; on a
/// pool's connection it polled for the file's lock in SQLite's busy
/// handler, and gave up after its 10 s (a soak's login answered 500).
#[tokio::test]
async fn a_login_waits_its_turn_past_sqlite_s_busy_timeout_while_the_writer_is_held() {
    let db = TestDb::sqlite().await;
    db.migrate(&MIGRATIONS).await.unwrap();
    let user = users::create(&db, "ann", "password-ann", Role::Operator).await.unwrap();
    let held = db.begin_write().await.unwrap();
    let login = {
        let db = db.db().clone();
        tokio::spawn(async move { sessions::start(&db, &user.id, POLICY, at(0)).await })
    };
    tokio::time::sleep(Duration::from_millis(10_500)).await;
    assert!(!login.is_finished(), "the login waited for the writer");
    drop(held);
    let issued = tokio::time::timeout(Duration::from_secs(5), login).await.unwrap().unwrap();
    assert!(issued.is_ok(), "the login got its turn once the writer was free: {issued:?}");
}
