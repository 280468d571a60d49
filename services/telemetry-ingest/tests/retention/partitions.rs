//! PostgreSQL's month partitions of the time series (telemetry migrations 9
//! and 12). Each table is its past, its months one after the other, and
//! its future, so every row has a partition and a device's rows are read
//! month by month, newest first. A month made next to either end takes its
//! rows from it; a month past the retention is dropped whole, with the
//! past. SQLite keeps each series in one table.

use std::time::Duration;

use chrono::{Datelike, TimeDelta, TimeZone, Utc};
use wm_storage::{Db, with_pool};
use wm_telemetry_ingest::{MIGRATIONS, retention, storage::partitions};
use wm_test_support::TestDb;

use super::{DAY, count, exec};

const SERIES: [&str; 3] = ["readings", "gateway_activity", "ble_activity"];

const INSERT_READING: &str = "INSERT INTO readings (event_id, meter_id, gateway_id, record_ml, occurred_at) \
                              VALUES ($1, 'm', 'g', 1, $2) ON CONFLICT DO NOTHING";

fn micros(year: i32, month: u32, day: u32) -> i64 {
    Utc.with_ymd_and_hms(year, month, day, 12, 0, 0).unwrap().timestamp_micros()
}

/// The first instant of the month `ahead` months after this one, UTC, in µs.
fn month_start(ahead: i32) -> i64 {
    let now = Utc::now();
    let months = now.year() * 12 + now.month0() as i32 + ahead;
    Utc.with_ymd_and_hms(months.div_euclid(12), months.rem_euclid(12) as u32 + 1, 1, 0, 0, 0)
        .unwrap()
        .timestamp_micros()
}

/// The first instant of the month holding `at`, UTC, in µs.
fn start_of_month(at: i64) -> i64 {
    let at = Utc.timestamp_micros(at).unwrap();
    Utc.with_ymd_and_hms(at.year(), at.month(), 1, 0, 0, 0).unwrap().timestamp_micros()
}

/// The month holding `at`, as partition names spell it.
fn month(at: i64) -> String {
    Utc.timestamp_micros(at).unwrap().format("%Y%m").to_string()
}

/// Inserts the event `id` at `at` into each series.
async fn insert_everywhere(db: &TestDb, id: &str, at: i64) {
    exec(db, INSERT_READING, id, at).await;
    let activity = "INSERT INTO gateway_activity (event_id, gateway_id, mqtt_topic, action, occurred_at) \
                    VALUES ($1, 'g', 't', 'reading', $2)";
    exec(db, activity, id, at).await;
    let ble =
        "INSERT INTO ble_activity (event_id, gateway_id, meter_id, rssi, occurred_at) VALUES ($1, 'g', 'm', -70, $2)";
    exec(db, ble, id, at).await;
}

/// The partition holding each row of `table`, by event id.
async fn placement(db: &Db, table: &str) -> Vec<(String, String)> {
    let sql = format!("SELECT event_id, tableoid::regclass::text FROM {table} ORDER BY event_id");
    with_pool!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(pool).await).unwrap()
}

/// An `(event id, partition)` pair of [`placement`].
fn row(id: &str, part: String) -> (String, String) {
    (id.to_owned(), part)
}

type Range = (String, Option<i64>, Option<i64>);

/// The partitions of `table` from the oldest to the newest, with their
/// bounds (`None`: `MINVALUE`, `MAXVALUE`). Fails unless they are all
/// ranges that follow one another from `MINVALUE` to `MAXVALUE`: every time
/// has its partition, and none is a default one.
async fn ranges(db: &Db, table: &str) -> Vec<Range> {
    let sql = "SELECT part, low, high FROM telemetry_partition_ranges($1) ORDER BY low NULLS FIRST";
    let ranges: Vec<Range> = with_pool!(db, pool => sqlx::query_as(sql).bind(table).fetch_all(pool).await).unwrap();
    let sql = "SELECT count(*) FROM pg_inherits WHERE inhparent = $1::regclass";
    let all: i64 = with_pool!(db, pool => sqlx::query_scalar(sql).bind(table).fetch_one(pool).await).unwrap();
    assert_eq!(usize::try_from(all).unwrap(), ranges.len(), "{table} has a partition that is not a range: {ranges:?}");
    assert_eq!(ranges.first().map(|r| r.1), Some(None), "{table} starts at MINVALUE: {ranges:?}");
    assert_eq!(ranges.last().map(|r| r.2), Some(None), "{table} ends at MAXVALUE: {ranges:?}");
    for pair in ranges.windows(2) {
        assert!(pair[0].2.is_some() && pair[0].2 == pair[1].1, "{table} has a gap or an overlap: {ranges:?}");
    }
    ranges
}

#[tokio::test]
async fn every_row_has_a_partition_and_a_month_made_next_to_an_end_takes_its_rows() {
    let Some(db) = TestDb::postgres().await else { return };
    db.migrate(&MIGRATIONS).await.unwrap();
    let parts = ranges(&db, "readings").await;
    let this_month = format!("readings_m{}", month(Utc::now().timestamp_micros()));
    assert_eq!(parts[0].0, "readings_past");
    assert_eq!(parts[parts.len() - 1].0, "readings_future");
    assert!(parts.iter().any(|p| p.0 == this_month), "the migration makes this month's: {parts:?}");
    let (past_end, future_start) = (parts[0].2.unwrap(), parts[parts.len() - 1].1.unwrap());

    // Rows of no month: a clock years behind, a month behind the oldest
    // month, a month ahead of the newest, years ahead.
    let (behind, ahead) = (past_end - 10 * DAY, future_start + 10 * DAY);
    let rows = [
        ("ahead", ahead),
        ("behind", behind),
        ("far", future_start + 5 * 365 * DAY),
        ("now", Utc::now().timestamp_micros()),
        ("old", micros(2019, 3, 10)),
    ];
    for (id, at) in rows {
        insert_everywhere(&db, id, at).await;
    }
    for table in SERIES {
        let part = |suffix: &str| format!("{table}_{suffix}");
        let expected = vec![
            row("ahead", part("future")),
            row("behind", part("past")),
            row("far", part("future")),
            row("now", part(&format!("m{}", month(rows[3].1)))),
            row("old", part("past")),
        ];
        assert_eq!(placement(&db, table).await, expected, "{table}");
    }

    // The month before the oldest is taken from the past, the month after
    // the newest from the future, each with its rows, and each once.
    assert_eq!(partitions::cover(&db, behind, behind).await.unwrap(), 3);
    assert_eq!(partitions::cover(&db, ahead, ahead).await.unwrap(), 3);
    assert_eq!(partitions::cover(&db, behind, ahead).await.unwrap(), 0, "made once");
    for table in SERIES {
        let part = |suffix: &str| format!("{table}_{suffix}");
        let expected = vec![
            row("ahead", part(&format!("m{}", month(ahead)))),
            row("behind", part(&format!("m{}", month(behind)))),
            row("far", part("future")),
            row("now", part(&format!("m{}", month(rows[3].1)))),
            row("old", part("past")),
        ];
        assert_eq!(placement(&db, table).await, expected, "{table}");
        assert_eq!(ranges(&db, table).await[0], (part("past"), None, Some(start_of_month(behind))), "{table}");
    }

    // Delivered again, an event is kept once.
    exec(&db, INSERT_READING, "behind", behind).await;
    assert_eq!(count(&db, "readings").await, 5);

    // The retention past the oldest month drops it with the past, once,
    // and an empty past takes the rows of a clock years behind again.
    assert_eq!(partitions::drop_before(&db, past_end - 1).await.unwrap(), 0, "the oldest month is not over");
    assert_eq!(partitions::drop_before(&db, past_end).await.unwrap(), 6);
    assert_eq!(partitions::drop_before(&db, past_end).await.unwrap(), 0, "dropped once");
    for table in SERIES {
        let part = |suffix: &str| format!("{table}_{suffix}");
        let kept = vec![
            row("ahead", part(&format!("m{}", month(ahead)))),
            row("far", part("future")),
            row("now", part(&format!("m{}", month(rows[3].1)))),
        ];
        assert_eq!(placement(&db, table).await, kept, "{table}");
        assert_eq!(ranges(&db, table).await[0], (part("past"), None, Some(past_end)), "{table}");
    }
    exec(&db, INSERT_READING, "old", micros(2019, 3, 10)).await;
    assert!(placement(&db, "readings").await.contains(&row("old", "readings_past".to_owned())));
}

/// The plan of a gateway's newest activity page. On empty tables the
/// planner's costs are guesses, so sorts and sequential scans are priced
/// out: what is left is what the partitions allow, an `Append` that reads
/// them in order only when they are all ranges, a `Merge Append` of every
/// partition otherwise.
async fn newest_page_plan(db: &Db) -> Vec<String> {
    let Db::Postgres(pool) = db else { panic!("PostgreSQL only") };
    let mut tx = pool.begin().await.unwrap();
    for set in ["SET LOCAL enable_seqscan = off", "SET LOCAL enable_sort = off"] {
        sqlx::query(set).execute(&mut *tx).await.unwrap();
    }
    let explain = "EXPLAIN (COSTS OFF) SELECT event_id FROM gateway_activity WHERE gateway_id = 'g' \
                   ORDER BY occurred_at DESC LIMIT 20";
    sqlx::query_scalar(explain).fetch_all(&mut *tx).await.unwrap()
}

#[tokio::test]
async fn a_devices_newest_rows_are_read_from_the_newest_partition_first() {
    let Some(db) = TestDb::postgres().await else { return };
    db.migrate(&MIGRATIONS.up_to(11)).await.unwrap();
    let plan = newest_page_plan(&db).await;
    assert!(plan.iter().any(|step| step.contains("Merge Append")), "with a default partition: {plan:#?}");

    db.migrate(&MIGRATIONS).await.unwrap();
    let plan = newest_page_plan(&db).await;
    assert!(plan.iter().any(|step| step.trim_start().starts_with("->  Append")), "{plan:#?}");
    assert!(!plan.iter().any(|step| step.contains("Merge Append")), "{plan:#?}");
    let scanned: Vec<&str> =
        plan.iter().filter_map(|step| step.split(" on ").nth(1)?.split_whitespace().next()).collect();
    let newest_first: Vec<String> = ranges(&db, "gateway_activity").await.into_iter().rev().map(|r| r.0).collect();
    assert_eq!(scanned, newest_first, "{plan:#?}");
}

#[tokio::test]
async fn an_upgrade_moves_the_default_partitions_rows_and_fills_the_gaps_between_months() {
    let Some(db) = TestDb::postgres().await else { return };
    db.migrate(&MIGRATIONS.up_to(11)).await.unwrap();
    // Migration 9 made the months up to the one after next; one made
    // further ahead by itself, as migration 9's functions allowed, leaves
    // a gap of one month.
    let cover = "SELECT telemetry_partitions_cover($1, $1)";
    let made: i32 =
        with_pool!(db.db(), pool => sqlx::query_scalar(cover).bind(month_start(4)).fetch_one(pool).await).unwrap();
    assert_eq!(made, 3);
    let rows = [
        ("far", month_start(5) + 5 * 365 * DAY),
        ("gap", month_start(3) + DAY),
        ("now", Utc::now().timestamp_micros()),
        ("old", micros(2019, 3, 10)),
    ];
    for (id, at) in rows {
        insert_everywhere(&db, id, at).await;
    }
    let waiting = placement(&db, "readings").await;
    assert_eq!(waiting.iter().filter(|(_, part)| part == "readings_default").count(), 3, "{waiting:?}");

    db.migrate(&MIGRATIONS).await.unwrap();
    for table in SERIES {
        let part = |suffix: &str| format!("{table}_{suffix}");
        let expected = vec![
            row("far", part("future")),
            row("gap", part(&format!("m{}", month(month_start(3))))),
            row("now", part(&format!("m{}", month(rows[2].1)))),
            row("old", part("past")),
        ];
        assert_eq!(placement(&db, table).await, expected, "{table}");
        let parts = ranges(&db, table).await;
        assert_eq!(parts[parts.len() - 1], (part("future"), Some(month_start(5)), None), "{table}");
    }
}

#[tokio::test]
async fn each_table_is_done_alone_so_a_writer_holding_one_waits_for_nothing_and_the_rest_are_made() {
    let Some(db) = TestDb::postgres().await else { return };
    db.migrate(&MIGRATIONS).await.unwrap();
    let Db::Postgres(pool) = db.db() else { unreachable!("PostgreSQL") };
    let before = ranges(&db, "gateway_activity").await;
    let future_start = before[before.len() - 1].1.unwrap();
    // A writer in the midst of a batch holds the activity, and will write
    // the readings next, as ingest does.
    let mut writer = pool.begin().await.unwrap();
    let activity = "INSERT INTO gateway_activity (event_id, gateway_id, mqtt_topic, action, occurred_at) \
                    VALUES ('w', 'g', 't', 'reading', $1)";
    sqlx::query(activity).bind(Utc::now().timestamp_micros()).execute(&mut *writer).await.unwrap();

    // The activity's month waits 2 s for the writer, then fails whole; the
    // other tables get theirs, each committed on its own.
    let waited = tokio::time::timeout(Duration::from_secs(60), partitions::cover(&db, future_start, future_start));
    let failed = waited.await.expect("gives up on the lock").unwrap_err();
    assert!(format!("{failed:?}").contains("lock timeout"), "{failed:?}");
    assert_eq!(ranges(&db, "gateway_activity").await, before, "nothing half made");
    let new_month = format!("m{}", month(future_start));
    for table in ["ble_activity", "readings"] {
        assert!(ranges(&db, table).await.iter().any(|r| r.0 == format!("{table}_{new_month}")), "{table}");
    }
    // So the writer's next table is not held: its batch goes on, into the
    // month just made.
    let reading = sqlx::query(INSERT_READING).bind("w").bind(future_start + DAY).execute(&mut *writer);
    tokio::time::timeout(Duration::from_secs(60), reading).await.expect("the readings are not held").unwrap();
    writer.commit().await.unwrap();
    assert!(placement(&db, "readings").await.contains(&row("w", format!("readings_{new_month}"))));

    assert_eq!(partitions::cover(&db, future_start, future_start).await.unwrap(), 1, "the activity's, on the next try");
}

#[tokio::test]
async fn with_a_weeks_retention_a_month_is_made_and_dropped_once_not_at_every_prune() {
    let Some(db) = TestDb::postgres().await else { return };
    db.migrate(&MIGRATIONS).await.unwrap();
    // Late in next month: a month behind it, this month, ended more than a
    // week before.
    let now = Utc.timestamp_micros(month_start(1) + 19 * DAY).unwrap();
    let before = now - TimeDelta::days(7);
    let prune = async || {
        let (from, to) = retention::months_kept_ready(now, before);
        let made = partitions::cover(&db, from, to).await.unwrap();
        (made, partitions::drop_before(&db, before.timestamp_micros()).await.unwrap())
    };
    let (_, dropped) = prune().await;
    assert!(dropped > 0, "the months behind the week go");
    assert_eq!(prune().await, (0, 0), "and are not made again");
}

#[tokio::test]
async fn sqlite_keeps_each_series_in_one_table() {
    let db = TestDb::sqlite().await;
    db.migrate(&MIGRATIONS).await.unwrap();
    assert_eq!(partitions::cover(&db, micros(2019, 3, 1), micros(2030, 1, 1)).await.unwrap(), 0);
    assert_eq!(partitions::drop_before(&db, micros(2030, 1, 1)).await.unwrap(), 0);
}

/// The indexes of `table`, by name.
async fn indexes_of(db: &Db, table: &str) -> Vec<String> {
    let sql = "SELECT indexname::text FROM pg_indexes WHERE tablename = $1 ORDER BY 1";
    with_pool!(db, pool => sqlx::query_scalar(sql).bind(table).fetch_all(pool).await).unwrap()
}

#[tokio::test]
async fn an_upgrade_keeps_the_rows_where_they_are_until_the_retention_drops_them() {
    let Some(db) = TestDb::postgres().await else { return };
    db.migrate(&MIGRATIONS.up_to(8)).await.unwrap();
    let bound = month_start(1);
    // "d" comes from a clock ahead of time, past the kept rows' bound.
    let rows = [
        ("a", micros(2024, 1, 31)),
        ("b", micros(2024, 2, 1)),
        ("c", Utc::now().timestamp_micros()),
        ("d", bound + 10 * DAY),
    ];
    for (id, at) in rows {
        insert_everywhere(&db, id, at).await;
    }
    // An operator built readings' new key beforehand, as docs/operations.md
    // says; the other two tables get theirs from the migration.
    let prebuilt = "CREATE UNIQUE INDEX CONCURRENTLY readings_event_time ON readings (event_id, occurred_at)";
    with_pool!(db.db(), pool => sqlx::raw_sql(prebuilt).execute(pool).await.map(drop)).unwrap();

    db.migrate(&MIGRATIONS).await.unwrap();
    let (kept_month, ahead_month) = (month(bound), month(bound + 10 * DAY));
    for (table, indexes) in [("readings", 3), ("gateway_activity", 4), ("ble_activity", 4)] {
        let kept = format!("{table}_before_{kept_month}");
        let expected: Vec<(String, String)> = [("a", &kept), ("b", &kept), ("c", &kept)]
            .map(|(id, part)| (id.to_owned(), part.clone()))
            .into_iter()
            .chain([("d".to_owned(), format!("{table}_m{ahead_month}"))])
            .collect();
        assert_eq!(placement(&db, table).await, expected, "{table}");
        assert_eq!(ranges(&db, table).await[0], (kept.clone(), None, Some(bound)), "the kept rows are the past");
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
    let stored: (String, String, i64, i64) =
        with_pool!(db.db(), pool => sqlx::query_as(sql).fetch_one(pool).await).unwrap();
    assert_eq!(stored, ("m".to_owned(), "g".to_owned(), 1, micros(2024, 2, 1)));

    // Delivered again, a kept event is kept once; the months the kept rows
    // cover are not made again.
    exec(&db, INSERT_READING, "a", micros(2024, 1, 31)).await;
    assert_eq!(count(&db, "readings").await, 4);
    assert_eq!(partitions::cover(&db, micros(2024, 1, 1), micros(2024, 2, 28)).await.unwrap(), 0);

    // Once the retention reaches the bound, the kept rows go whole, and an
    // empty past takes their place.
    assert_eq!(partitions::drop_before(&db, bound - 1).await.unwrap(), 0);
    assert_eq!(partitions::drop_before(&db, bound).await.unwrap(), 3);
    assert_eq!(placement(&db, "readings").await, [row("d", format!("readings_m{ahead_month}"))]);
    for table in SERIES {
        assert_eq!(ranges(&db, table).await[0], (format!("{table}_past"), None, Some(bound)), "{table}");
    }
}
