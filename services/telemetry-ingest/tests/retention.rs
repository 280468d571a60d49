//! Telemetry past its retention is deleted, on both databases, with the
//! hourly rollups; newer rows, daily rollups and the tables that are state,
//! not history, stay.
//!
//! PostgreSQL partitions readings and activity by month (DESIGN §5): rows
//! land in their month, a month made late takes its rows from the default
//! partition, a redelivered event is still kept once, and a month past the
//! retention is dropped whole. SQLite has one table per series.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

use chrono::{Datelike, TimeZone, Utc};
use wm_storage::{Db, Migrations, prune, with_pool};
use wm_telemetry_ingest::{
    MIGRATIONS,
    storage::{partitions, retention},
};
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
            "INSERT INTO ingest_messages (gateway_id, message_id, received_at) VALUES ($1, 1, $2)",
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

const INSERT_READING: &str = "INSERT INTO readings (event_id, meter_id, gateway_id, record_ml, occurred_at) \
                              VALUES ($1, 'm', 'g', 1, $2) ON CONFLICT DO NOTHING";

fn micros(year: i32, month: u32, day: u32) -> i64 {
    Utc.with_ymd_and_hms(year, month, day, 12, 0, 0).unwrap().timestamp_micros()
}

/// The partition holding each row of `table`, by event id.
async fn placement(db: &Db, table: &str) -> Vec<(String, String)> {
    let sql = format!("SELECT event_id, tableoid::regclass::text FROM {table} ORDER BY event_id");
    with_pool!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(pool).await).unwrap()
}

/// The partitions of `table`, by name.
async fn partitions_of(db: &Db, table: &str) -> Vec<String> {
    let sql = "SELECT c.relname::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid \
               WHERE i.inhparent = $1::regclass ORDER BY 1";
    with_pool!(db, pool => sqlx::query_scalar(sql).bind(table).fetch_all(pool).await).unwrap()
}

#[tokio::test]
async fn rows_land_in_their_month_and_a_month_past_the_retention_is_dropped_whole() {
    let Some(db) = TestDb::postgres().await else { return };
    db.migrate(&MIGRATIONS).await.unwrap();
    let this_month = format!("readings_m{}", Utc::now().format("%Y%m"));
    assert!(partitions_of(&db, "readings").await.contains(&this_month), "the migration makes this month's");
    assert!(partitions_of(&db, "readings").await.contains(&"readings_default".to_owned()));

    // 2019 has no partition: its rows wait in the default one.
    exec(&db, INSERT_READING, "old", micros(2019, 3, 10)).await;
    exec(&db, INSERT_READING, "new", Utc::now().timestamp_micros()).await;
    assert_eq!(
        placement(&db, "readings").await,
        [("new".to_owned(), this_month.clone()), ("old".to_owned(), "readings_default".to_owned())]
    );

    // March 2019 made late: each series gets it, and the row moves in.
    assert_eq!(partitions::cover(&db, micros(2019, 3, 1), micros(2019, 3, 31)).await.unwrap(), 3);
    assert_eq!(partitions::cover(&db, micros(2019, 3, 1), micros(2019, 3, 31)).await.unwrap(), 0, "made once");
    assert_eq!(placement(&db, "readings").await[1], ("old".to_owned(), "readings_m201903".to_owned()));
    for table in ["gateway_activity", "ble_activity"] {
        assert!(partitions_of(&db, table).await.contains(&format!("{table}_m201903")), "{table}");
    }

    // Delivered again, the event is kept once.
    exec(&db, INSERT_READING, "old", micros(2019, 3, 10)).await;
    assert_eq!(placement(&db, "readings").await.len(), 2);

    // The retention reaching April 2019 drops March whole, and nothing newer.
    assert_eq!(partitions::drop_before(&db, micros(2019, 3, 31)).await.unwrap(), 0, "March is not over");
    assert_eq!(partitions::drop_before(&db, micros(2019, 4, 2)).await.unwrap(), 3);
    assert_eq!(placement(&db, "readings").await, [("new".to_owned(), this_month.clone())]);
    assert!(!partitions_of(&db, "gateway_activity").await.iter().any(|p| p.ends_with("201903")));
    assert!(partitions_of(&db, "readings").await.contains(&this_month));
}

/// The first instant of next month, UTC, in µs.
fn next_month() -> i64 {
    let now = Utc::now();
    let (year, month) = if now.month() == 12 { (now.year() + 1, 1) } else { (now.year(), now.month() + 1) };
    Utc.with_ymd_and_hms(year, month, 1, 0, 0, 0).unwrap().timestamp_micros()
}

/// The indexes of `table`, by name.
async fn indexes_of(db: &Db, table: &str) -> Vec<String> {
    let sql = "SELECT indexname::text FROM pg_indexes WHERE tablename = $1 ORDER BY 1";
    with_pool!(db, pool => sqlx::query_scalar(sql).bind(table).fetch_all(pool).await).unwrap()
}

#[tokio::test]
async fn an_upgrade_keeps_the_rows_where_they_are_until_the_retention_drops_them() {
    let Some(db) = TestDb::postgres().await else { return };
    let before = Migrations {
        component: MIGRATIONS.component,
        sqlite: &MIGRATIONS.sqlite[..8],
        postgres: &MIGRATIONS.postgres[..8],
    };
    db.migrate(&before).await.unwrap();
    let bound = next_month();
    // "d" comes from a clock ahead of time, past the kept rows' bound.
    let rows = [
        ("a", micros(2024, 1, 31)),
        ("b", micros(2024, 2, 1)),
        ("c", Utc::now().timestamp_micros()),
        ("d", bound + 10 * DAY),
    ];
    for (id, at) in rows {
        exec(&db, INSERT_READING, id, at).await;
        let activity = "INSERT INTO gateway_activity (event_id, gateway_id, mqtt_topic, action, occurred_at) \
                        VALUES ($1, 'g', 't', 'reading', $2)";
        exec(&db, activity, id, at).await;
        let ble = "INSERT INTO ble_activity (event_id, gateway_id, meter_id, rssi, occurred_at) VALUES ($1, 'g', 'm', -70, $2)";
        exec(&db, ble, id, at).await;
    }
    // An operator built readings' new key beforehand, as docs/operations.md
    // says; the other two tables get theirs from the migration.
    let prebuilt = "CREATE UNIQUE INDEX CONCURRENTLY readings_event_time ON readings (event_id, occurred_at)";
    with_pool!(db.db(), pool => sqlx::raw_sql(prebuilt).execute(pool).await.map(drop)).unwrap();

    db.migrate(&MIGRATIONS).await.unwrap();
    let month = |at: i64| Utc.timestamp_micros(at).unwrap().format("%Y%m").to_string();
    let (kept_month, ahead_month) = (month(bound), month(bound + 10 * DAY));
    for (table, indexes) in [("readings", 3), ("gateway_activity", 4), ("ble_activity", 4)] {
        let kept = format!("{table}_before_{kept_month}");
        let expected: Vec<(String, String)> = [("a", &kept), ("b", &kept), ("c", &kept)]
            .map(|(id, part)| (id.to_owned(), part.clone()))
            .into_iter()
            .chain([("d".to_owned(), format!("{table}_m{ahead_month}"))])
            .collect();
        assert_eq!(placement(&db, table).await, expected, "{table}");
        // Kept, not copied: its indexes are the old ones, renamed, and the
        // new key, each once (readings' the one built beforehand), and the
        // index on time that migration 11 gives every partition.
        let held = indexes_of(&db, &kept).await;
        assert_eq!(held.len(), indexes, "{held:?}");
        assert!(held.contains(&format!("{kept}_pkey")), "{held:?}");
    }
    let left = "SELECT count(*) FROM pg_class WHERE relname LIKE '%unpartitioned%'";
    assert_eq!(with_pool!(db.db(), pool => sqlx::query_scalar::<_, i64>(left).fetch_one(pool).await).unwrap(), 0);
    let sql = "SELECT meter_id, gateway_id, record_ml, occurred_at FROM readings WHERE event_id = 'b'";
    let row: (String, String, i64, i64) =
        with_pool!(db.db(), pool => sqlx::query_as(sql).fetch_one(pool).await).unwrap();
    assert_eq!(row, ("m".to_owned(), "g".to_owned(), 1, micros(2024, 2, 1)));

    // Delivered again, a kept event is kept once; the months the kept rows
    // cover are not made again.
    exec(&db, INSERT_READING, "a", micros(2024, 1, 31)).await;
    assert_eq!(count(&db, "readings").await, 4);
    assert_eq!(partitions::cover(&db, micros(2024, 1, 1), micros(2024, 2, 28)).await.unwrap(), 0);

    // Once the retention reaches the bound, the kept rows go whole.
    assert_eq!(partitions::drop_before(&db, bound - 1).await.unwrap(), 0);
    assert_eq!(partitions::drop_before(&db, bound).await.unwrap(), 3);
    assert_eq!(placement(&db, "readings").await, [("d".to_owned(), format!("readings_m{ahead_month}"))]);
}

#[tokio::test]
async fn sqlite_keeps_each_series_in_one_table() {
    let db = TestDb::sqlite().await;
    db.migrate(&MIGRATIONS).await.unwrap();
    assert_eq!(partitions::cover(&db, micros(2019, 3, 1), micros(2030, 1, 1)).await.unwrap(), 0);
    assert_eq!(partitions::drop_before(&db, micros(2030, 1, 1)).await.unwrap(), 0);
}
