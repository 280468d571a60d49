//! The message-id claims (telemetry migration 14): an uplink is a resend
//! when its gateway, its message id and the time its gateway observed it
//! were all claimed before. A gateway whose counter started over reuses an
//! id with a new time, and that uplink is new. Since migration 15 they are
//! keyed by that time first.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

use std::collections::HashSet;

use wm_telemetry_ingest::{MIGRATIONS, storage::telemetry};
use wm_test_support::TestDb;

/// Claims `claims` in one transaction; returns those that were new.
async fn claim(db: &TestDb, claims: &[telemetry::Claim<'_>]) -> HashSet<(String, i64, i64)> {
    let mut tx = db.db().begin_write().await.unwrap();
    let new = telemetry::claim(&mut tx, claims, 1_000).await.unwrap();
    tx.commit().await.unwrap();
    new
}

fn set(claims: &[telemetry::Claim<'_>]) -> HashSet<(String, i64, i64)> {
    claims.iter().map(|(g, id, at)| ((*g).to_owned(), telemetry::message_id_value(*id), *at)).collect()
}

#[tokio::test]
async fn a_resend_meets_its_claim_and_a_reused_id_with_a_new_time_does_not() {
    for db in TestDb::each().await {
        db.migrate(&MIGRATIONS).await.unwrap();
        let backend = db.backend();
        let first = claim(&db, &[("g1", 1, 10), ("g1", 1, 10), ("g1", 2, 20), ("g2", 1, 10)]).await;
        assert_eq!(
            first,
            set(&[("g1", 1, 10), ("g1", 2, 20), ("g2", 1, 10)]),
            "{backend:?}: listed twice, claimed once"
        );

        let resent = claim(&db, &[("g1", 1, 10), ("g1", 2, 20)]).await;
        assert!(resent.is_empty(), "{backend:?}: resends: {resent:?}");

        // g1 restarted its counter: ids 1 and 2 again, observed later, one
        // of them twice in the batch and one sent again within it.
        let restarted = claim(&db, &[("g1", 1, 30), ("g1", 2, 40), ("g1", 1, 30), ("g1", 2, 20)]).await;
        assert_eq!(restarted, set(&[("g1", 1, 30), ("g1", 2, 40)]), "{backend:?}");
        assert!(claim(&db, &[("g1", 1, 30), ("g1", 1, 10)]).await.is_empty(), "{backend:?}: both are resends now");

        // Without a timestamp (a status), the id alone is the claim.
        assert_eq!(claim(&db, &[("g3", 5, 0)]).await, set(&[("g3", 5, 0)]), "{backend:?}");
        assert!(claim(&db, &[("g3", 5, 0)]).await.is_empty(), "{backend:?}");
    }
}

/// Migration 14 starts the claims afresh (a claim from before holds no
/// time); the previous release, still running while the pods roll, claims
/// through the column's default.
#[tokio::test]
async fn an_upgrade_starts_the_claims_afresh_and_the_previous_release_still_claims() {
    for db in TestDb::each().await {
        let backend = db.backend();
        db.migrate(&MIGRATIONS.up_to(13)).await.unwrap();
        // The previous release's claim, as it writes it.
        let previous = "INSERT INTO ingest_messages (gateway_id, message_id, received_at) VALUES ('g1', 7, 500) \
                        ON CONFLICT DO NOTHING RETURNING gateway_id, message_id";
        let claimed = async || {
            let mut tx = db.db().begin_write().await.unwrap();
            let n = wm_storage::execute!(&mut tx, previous).unwrap();
            tx.commit().await.unwrap();
            n
        };
        assert_eq!(claimed().await, 1, "{backend:?}");

        db.migrate(&MIGRATIONS).await.unwrap();
        assert_eq!(claim(&db, &[("g1", 7, 70)]).await, set(&[("g1", 7, 70)]), "{backend:?}: afresh");
        assert_eq!(claimed().await, 1, "{backend:?}: the previous release claims without a time");
        assert_eq!(claimed().await, 0, "{backend:?}: and meets its own claim");
        assert!(claim(&db, &[("g1", 7, 0)]).await.is_empty(), "{backend:?}: which holds no time");
    }
}

/// The columns of the claims' primary key, in order.
async fn key(db: &TestDb) -> String {
    let sql = match db.backend() {
        wm_storage::Backend::Sqlite => {
            "SELECT group_concat(name, ', ') FROM (SELECT name FROM \
             pragma_index_info('sqlite_autoindex_ingest_messages_1') ORDER BY seqno)"
        }
        wm_storage::Backend::Postgres => {
            "SELECT pg_get_indexdef(indexrelid) FROM pg_index \
             WHERE indrelid = 'ingest_messages'::regclass AND indisprimary"
        }
    };
    wm_storage::with_pool!(db.db(), pool => sqlx::query_scalar(sql).fetch_one(pool).await).unwrap()
}

/// Migration 15 keys the claims by the time the gateway observed the
/// message first, so that a batch's claims land on the key's newest pages
/// together instead of on a page per gateway; the claims made before it are
/// kept, and their resends are still resends.
#[tokio::test]
async fn an_upgrade_keys_the_claims_by_time_first_and_keeps_them() {
    for db in TestDb::each().await {
        let backend = db.backend();
        db.migrate(&MIGRATIONS.up_to(14)).await.unwrap();
        let before = [("g1", 1, 10), ("g2", 1, 20), ("g1", 2, 0)];
        assert_eq!(claim(&db, &before).await, set(&before), "{backend:?}");

        db.migrate(&MIGRATIONS).await.unwrap();
        let primary = key(&db).await;
        assert!(primary.contains("observed_at, gateway_id, message_id"), "{backend:?}: {primary}");
        assert!(claim(&db, &before).await.is_empty(), "{backend:?}: kept across the upgrade");
        let after = [("g1", 1, 30), ("g2", 2, 20), ("g3", 1, 10)];
        assert_eq!(claim(&db, &after).await, set(&after), "{backend:?}");
        assert!(claim(&db, &after).await.is_empty(), "{backend:?}");
    }
}
