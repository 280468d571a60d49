//! The state projection's claims on readings are forgotten in batches,
//! off the projection's path, once old enough; newer ones keep a
//! redelivered reading from being counted twice.

use wm_device_registry::storage::state;
use wm_test_support::TestDb;

#[tokio::test]
async fn old_claims_are_forgotten_in_batches_and_newer_ones_kept() {
    for db in TestDb::each().await {
        db.migrate(&wm_device_registry::MIGRATIONS).await.unwrap();
        // More than one batch of old claims.
        let old: Vec<String> = (0..6_000).map(|i| format!("old-{i}")).collect();
        let old: Vec<&str> = old.iter().map(String::as_str).collect();
        let mut tx = db.begin_write().await.unwrap();
        assert_eq!(state::claim_readings(&mut tx, &old, 1_000).await.unwrap().len(), 6_000);
        assert_eq!(state::claim_readings(&mut tx, &["new"], 5_000).await.unwrap().len(), 1);
        tx.commit().await.unwrap();

        assert_eq!(state::forget_claims(&db, 2_000).await.unwrap(), 6_000, "{:?}", db.backend());
        let mut tx = db.begin_write().await.unwrap();
        let fresh = state::claim_readings(&mut tx, &["old-0", "old-5999", "new"], 6_000).await.unwrap();
        tx.commit().await.unwrap();
        let mut fresh: Vec<String> = fresh.into_iter().collect();
        fresh.sort();
        assert_eq!(fresh, ["old-0", "old-5999"], "the new claim still holds: {:?}", db.backend());
    }
}
