//! `wmeter seed` drops the indexes its order scatters and builds them after
//! the load: on both databases they come back as the migrations made them,
//! on PostgreSQL on every month's partition too.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

use wm_storage::{Db, with_pool};
use wm_telemetry_ingest::{MIGRATIONS, seed};
use wm_test_support::TestDb;

const DAY: i64 = 86_400_000_000;

/// Every index of the database: its name and its definition.
async fn indexes(db: &Db) -> Vec<(String, String)> {
    let sql = match db {
        Db::Sqlite(_) => "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name",
        Db::Postgres(_) => {
            "SELECT indexname::text, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1"
        }
    };
    with_pool!(db, pool => sqlx::query_as(sql).fetch_all(pool).await).unwrap()
}

#[tokio::test]
async fn the_indexes_a_seed_defers_come_back_as_the_migrations_made_them() {
    for db in TestDb::each().await {
        db.migrate(&MIGRATIONS).await.unwrap();
        let now = chrono::Utc::now().timestamp_micros();
        seed::months(&db, now - 30 * DAY, now).await.unwrap();
        let migrated = indexes(&db).await;

        let deferred = seed::defer_scattered_indexes(&db).await.unwrap();
        let during = indexes(&db).await;
        let scattered = [
            "gateway_activity_gateway",
            "gateway_activity_time",
            "readings_time",
            "meter_hourly_bucket",
            "meter_daily_bucket",
        ];
        for name in scattered {
            let held = |all: &[(String, String)]| all.iter().any(|(index, _)| index == name);
            assert!(held(&migrated), "{name} before: {migrated:?}");
            assert!(!held(&during), "{name} during the load: {during:?}");
        }
        assert!(during.len() < migrated.len());

        deferred.build(&db).await.unwrap();
        assert_eq!(indexes(&db).await, migrated);
    }
}
