//! Telemetry past its retention is deleted, on both databases, with the
//! hourly rollups; newer rows, daily rollups and the tables that are state,
//! not history, stay.
//!
//! PostgreSQL partitions readings and activity by month (DESIGN §5):
//! `partitions` tests them. SQLite has one table per series.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

mod partitions;

use wm_storage::{prune, with_pool};
use wm_telemetry_ingest::{MIGRATIONS, storage::retention};
use wm_test_support::TestDb;

const DAY: i64 = 86_400_000_000;

async fn count(db: &TestDb, table: &str) -> i64 {
    let sql = format!("SELECT COUNT(*) FROM {table}");
    with_pool!(db.db(), pool => sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).fetch_one(pool).await).unwrap()
}

async fn exec(db: &TestDb, sql: &str, id: &str, at: i64) {
    with_pool!(db.db(), pool => sqlx::query(sqlx::AssertSqlSafe(sql.to_owned())).bind(id).bind(at).execute(pool).await.map(|_| ()))
        .unwrap();
}

#[tokio::test]
async fn old_telemetry_goes_and_the_rest_stays() {
    for db in TestDb::each().await {
        db.migrate(&MIGRATIONS).await.unwrap();
        let now = 100 * DAY;
        for (n, at) in (0..12_000).map(|n| (n, if n < 11_000 { now - 10 * DAY } else { now })) {
            let id = format!("e{n}");
            exec(&db, "INSERT INTO readings (event_id, meter_id, gateway_id, record_ml, occurred_at) VALUES ($1, 'm', 'g', 1, $2)", &id, at).await;
        }
        exec(&db, "INSERT INTO gateway_activity (event_id, gateway_id, mqtt_topic, action, occurred_at) VALUES ($1, 'g', 't', 'a', $2)", "old", now - 10 * DAY).await;
        exec(
            &db,
            "INSERT INTO ingest_messages (gateway_id, message_id, observed_at, received_at) VALUES ($1, 1, 0, $2)",
            "g",
            now - 10 * DAY,
        )
        .await;
        exec(&db, "INSERT INTO alerts (meter_id, alert_type, raised, received_at, updated_at) VALUES ($1, 'leak', TRUE, $2, $2)", "m", now - 10 * DAY).await;
        for at in [now - 10 * DAY, now] {
            exec(
                &db,
                "INSERT INTO meter_hourly (meter_id, bucket, volume_ml, readings) VALUES ($1, $2, 5, 1)",
                "m",
                at,
            )
            .await;
            exec(&db, "INSERT INTO meter_daily (meter_id, bucket, volume_ml, readings) VALUES ($1, $2, 5, 1)", "m", at)
                .await;
        }

        let deleted = retention::prune(&db, now - 7 * DAY).await.unwrap();
        assert_eq!(deleted, 11_003, "{:?}", db.backend());
        assert_eq!(count(&db, "readings").await, 1_000);
        assert_eq!(count(&db, "gateway_activity").await, 0);
        assert_eq!(count(&db, "ingest_messages").await, 0);
        assert_eq!(count(&db, "alerts").await, 1, "an alert is state, not history");
        assert_eq!(count(&db, "meter_hourly").await, 1, "hourly rollups go with the readings");
        assert_eq!(count(&db, "meter_daily").await, 2, "daily rollups are kept");
    }
}

#[tokio::test]
async fn the_rollups_old_claims_are_forgotten_and_newer_ones_kept() {
    for db in TestDb::each().await {
        db.migrate(&MIGRATIONS).await.unwrap();
        let now = 100 * DAY;
        for (id, at) in [("old", now - 3 * DAY), ("new", now)] {
            exec(&db, "INSERT INTO rollup_claims (event_id, claimed_at) VALUES ($1, $2)", id, at).await;
        }
        assert_eq!(retention::forget_rollup_claims(&db, now - 2 * DAY).await.unwrap(), 1, "{:?}", db.backend());
        assert_eq!(count(&db, "rollup_claims").await, 1);
    }
}

/// A batch of the retention runs in the writer's turn: a scan of 10,000,000
/// readings there held the writer for 3.97 s from a cold cache (migration
/// 11). PostgreSQL's planner is not asked: on empty tables it
/// rightly prefers a scan.
#[tokio::test]
async fn sqlite_finds_each_batch_to_prune_by_an_index_on_its_time_not_by_a_scan() {
    let db = TestDb::sqlite().await;
    db.migrate(&MIGRATIONS).await.unwrap();
    for (table, column, key) in retention::TABLES.into_iter().chain([retention::ROLLUP_CLAIMS]) {
        let plan = db.sqlite_plan(&prune::statement(table, column, key)).await;
        let by_time = (format!("SEARCH {table} USING "), format!("({column}<?)"));
        assert!(
            plan.iter().any(|step| step.starts_with(&by_time.0) && step.ends_with(&by_time.1)),
            "{table}: {plan:?}"
        );
        assert!(!plan.iter().any(|step| step.starts_with("SCAN")), "{table}: {plan:?}");
    }
}
