//! SQLite reads by key along one B-tree (migration 10, docs/performance.md
//! §3): the directory and the message-id claims have no rowid, an upgrade
//! keeps their rows, ingest's lookups read one index each, and a page of
//! activity or alarms reads its rows in order and each device's name by key,
//! in the same statement.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

use sqlx::SqlitePool;
use wm_telemetry_ingest::MIGRATIONS;
use wm_test_support::TestDb;

/// The tables migration 10 rebuilds or reindexes, each row as one string.
const ROWS: [&str; 4] = [
    "SELECT id || '|' || serial_number FROM ingest_gateways ORDER BY 1",
    "SELECT id || '|' || serial_number || '|' || ble_address || '|' || device_name FROM ingest_meters ORDER BY 1",
    "SELECT gateway_id || '|' || message_id || '|' || received_at FROM ingest_messages ORDER BY 1",
    "SELECT event_id || '|' || gateway_id || '|' || coalesce(meter_id, '-') || '|' || mqtt_topic || '|' || action \
     || '|' || occurred_at FROM gateway_activity ORDER BY 1",
];

/// The SQLite pool of a test database made by `TestDb::sqlite`.
fn sqlite(db: &TestDb) -> &SqlitePool {
    db.db().sqlite().expect("a SQLite test database")
}

async fn run(db: &TestDb, sql: &str) -> Result<(), sqlx::Error> {
    sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_owned())).execute(sqlite(db)).await.map(drop)
}

async fn strings(db: &TestDb, sql: &str) -> Vec<String> {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_owned())).fetch_all(sqlite(db)).await.unwrap()
}

async fn all_rows(db: &TestDb) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for sql in ROWS {
        rows.push(strings(db, sql).await);
    }
    rows
}

#[tokio::test]
async fn sqlite_s_upgrade_keeps_every_row_of_the_tables_it_rebuilds() {
    let db = TestDb::sqlite().await;
    db.migrate(&MIGRATIONS.up_to(9)).await.unwrap();
    run(
        &db,
        "INSERT INTO ingest_gateways VALUES ('g2', 'S2'), ('g1', 'S1');
         INSERT INTO ingest_meters VALUES ('m2', 'M2', 'aa:02', 'WM-2'), ('m1', 'M1', 'aa:01', 'WM-1');
         INSERT INTO ingest_messages VALUES ('g2', 7, 300), ('g1', 9, 100), ('g1', 8, 200);
         INSERT INTO gateway_activity VALUES ('e3', 'g2', 'm2', 't/2', 'reading 1 L', 30),
             ('e1', 'g1', NULL, 't/1', 'status', 10), ('e2', 'g1', 'm1', 't/1', 'reading 2 L', 20);",
    )
    .await
    .unwrap();
    let rows = all_rows(&db).await;
    assert!(rows.iter().all(|table| table.len() >= 2), "{rows:?}");

    // Up to migration 13: 14 starts the message-id claims afresh (tests/claims.rs).
    db.migrate(&MIGRATIONS.up_to(13)).await.unwrap();
    assert_eq!(all_rows(&db).await, rows);
    for table in ["ingest_gateways", "ingest_meters", "ingest_messages"] {
        let sql = format!("SELECT CAST(wr AS TEXT) FROM pragma_table_list WHERE name = '{table}'");
        assert_eq!(strings(&db, &sql).await, ["1"], "{table} has no rowid");
    }
    let left = "SELECT name FROM sqlite_master WHERE name LIKE '%by_rowid%'";
    assert!(strings(&db, left).await.is_empty());
    // A resent uplink is still claimed once, and a serial still unique.
    run(&db, "INSERT INTO ingest_messages VALUES ('g1', 8, 500) ON CONFLICT DO NOTHING").await.unwrap();
    assert_eq!(
        strings(&db, "SELECT CAST(received_at AS TEXT) FROM ingest_messages WHERE message_id = 8").await,
        ["200"]
    );
    let taken = run(&db, "INSERT INTO ingest_meters VALUES ('m3', 'M1', 'aa:03', 'WM-3')").await;
    assert!(taken.is_err(), "a second meter with serial M1");
}

#[tokio::test]
async fn sqlite_answers_ingest_s_lookups_and_a_page_with_its_names_from_one_b_tree_each() {
    let db = TestDb::sqlite().await;
    db.migrate(&MIGRATIONS).await.unwrap();
    let plans = [
        (
            "SELECT a.event_id, a.gateway_id, a.meter_id, a.mqtt_topic, a.action, a.occurred_at, \
             'GTW-' || g.serial_number AS gateway_name, m.device_name AS meter_name FROM gateway_activity a \
             LEFT JOIN ingest_gateways g ON g.id = a.gateway_id LEFT JOIN ingest_meters m ON m.id = a.meter_id \
             WHERE a.gateway_id = 'g' ORDER BY a.occurred_at DESC LIMIT 20",
            &[
                "SEARCH a USING COVERING INDEX gateway_activity_gateway (gateway_id=?)",
                "SEARCH g USING PRIMARY KEY (id=?) LEFT-JOIN",
                "SEARCH m USING PRIMARY KEY (id=?) LEFT-JOIN",
            ][..],
        ),
        (
            "SELECT a.alarm_id, COALESCE(m.device_name, 'GTW-' || g.serial_number) AS device_name FROM alarms a \
             LEFT JOIN ingest_meters m ON a.device_kind = 'meter' AND m.id = a.device_id \
             LEFT JOIN ingest_gateways g ON a.device_kind = 'gateway' AND g.id = a.device_id \
             ORDER BY a.raised_at DESC, a.alarm_id DESC LIMIT 51",
            &[
                "SCAN a USING INDEX alarms_raised",
                "SEARCH m USING PRIMARY KEY (id=?) LEFT-JOIN",
                "SEARCH g USING PRIMARY KEY (id=?) LEFT-JOIN",
            ],
        ),
        (
            "SELECT ble_address, id FROM ingest_meters WHERE ble_address IN ('a', 'b')",
            &["SEARCH ingest_meters USING COVERING INDEX ingest_meters_ble (ble_address=?)"],
        ),
        (
            "SELECT serial_number, id FROM ingest_meters WHERE serial_number IN ('a', 'b')",
            &["SEARCH ingest_meters USING COVERING INDEX ingest_meters_serial (serial_number=?)"],
        ),
        (
            "SELECT serial_number, id FROM ingest_gateways WHERE serial_number IN ('a', 'b')",
            &["SEARCH ingest_gateways USING COVERING INDEX ingest_gateways_serial (serial_number=?)"],
        ),
    ];
    for (sql, expected) in plans {
        assert_eq!(db.sqlite_plan(sql).await, expected, "{sql}");
    }
}

/// On PostgreSQL a page of activity is planned once per connection, not at
/// each request: with `LIMIT $n` PostgreSQL planned it anew every time
/// (the month partitions and the two names made planning take longer than
/// running it: 0.24 ms against 0.14, docs/performance.md §8), because a
/// generic plan's estimate of an unknown limit made it look dearer.
#[tokio::test]
async fn postgresql_plans_a_page_of_activity_once_and_keeps_the_plan() {
    use wm_storage::{DatabaseSettings, Db, with_pool};
    use wm_telemetry_ingest::storage::reads::{self, Slice};

    let Some(test_db) = TestDb::postgres().await else { return };
    test_db.migrate(&MIGRATIONS).await.unwrap();
    let now = chrono::Utc::now().timestamp_micros();
    let day = 86_400_000_000;
    wm_telemetry_ingest::seed::months(test_db.db(), now - 40 * day, now).await.unwrap();
    // Two gateways, 10,000 rows each over 40 days (two months'
    // partitions): enough for an unknown limit's estimate, a tenth of a
    // gateway's rows, to make a generic plan look dearer than one made
    // for a limit of 20, by more than PostgreSQL reckons planning costs.
    let rows = "INSERT INTO gateway_activity (event_id, gateway_id, meter_id, mqtt_topic, action, occurred_at) \
                SELECT 'e' || n, 'g' || (n % 2), 'm' || n, 't', 'reading 1 L', $1 - n * $2 \
                FROM generate_series(0, 19999) AS n";
    with_pool!(test_db.db(), pool => sqlx::query(rows).bind(now).bind(day / 500).execute(pool).await.map(drop))
        .unwrap();
    with_pool!(test_db.db(), pool => sqlx::query("ANALYZE").execute(pool).await.map(drop)).unwrap();
    // One connection, so every page uses the same prepared statement.
    let db = Db::connect(&DatabaseSettings { max_connections: 1, ..test_db.settings().clone() }).await.unwrap();
    for g in 0..20 {
        let slice = Slice { equal: vec![("gateway_id", format!("g{}", g % 2))], before: None, max: 20 };
        let page = reads::gateway_activity(&db, &slice).await.unwrap();
        let newest: Vec<String> = (0..20).map(|i| format!("e{}", g % 2 + 2 * i)).collect();
        assert_eq!(page.iter().map(|a| a.id.clone()).collect::<Vec<_>>(), newest, "g{}'s newest 20", g % 2);
    }
    let (generic, custom): (i64, i64) = with_pool!(&db, pool => sqlx::query_as(
        "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE '%FROM gateway_activity a%'",
    )
    .fetch_one(pool)
    .await)
    .unwrap();
    assert!(custom <= 5 && generic + custom == 20, "generic {generic}, custom {custom}: planned at each page");
}

/// Ingest writes a reading with the id of its uplink's activity row, and
/// leaves that row out of the activity's index by meter (telemetry
/// migration 13), so that a reading costs one index by meter, not two; the
/// activity rows of other uplinks stay in it.
#[tokio::test]
async fn a_reading_s_activity_is_found_through_its_reading_not_an_index_of_its_own() {
    use wm_telemetry_ingest::{
        ingest::events::{Resolved, events},
        storage::telemetry,
    };
    use wm_uplink::Kind;

    let db = TestDb::sqlite().await;
    db.migrate(&MIGRATIONS).await.unwrap();
    let now = chrono::Utc::now();
    let who = Resolved {
        gateway_id: "g".to_owned(),
        gateway_serial: "GW00000001".to_owned(),
        meter_id: Some("m".to_owned()),
    };
    let heard = wm_test_support::devices::address(0xC0, 1);
    let at = now.to_rfc3339();
    let mut envelopes = Vec::new();
    for (kind, body) in [
        (Kind::Reading, serde_json::json!({"messageId": 1, "timestamp": at, "meter": heard, "record": 7, "unit": "L"})),
        (Kind::Ble, serde_json::json!({"messageId": 2, "timestamp": at, "meter": heard, "rssi": -70})),
    ] {
        let uplink = wm_uplink::parse(kind, body.to_string().as_bytes(), now).unwrap();
        envelopes.extend(events(&format!("wmeter/v1/gw/GW00000001/{}", kind.as_str()), &uplink, &who, now));
    }
    let mut tx = db.db().begin_write().await.unwrap();
    telemetry::persist_all(&mut tx, &envelopes).await.unwrap();
    tx.commit().await.unwrap();

    let activity = "SELECT action || '|' || via_reading FROM gateway_activity ORDER BY action";
    assert_eq!(strings(&db, activity).await, ["ble -70 dBm|0", "reading 7 L|1"]);
    let linked =
        "SELECT CAST(r.activity_id = a.event_id AS TEXT) FROM readings r, gateway_activity a WHERE a.via_reading";
    assert_eq!(strings(&db, linked).await, ["1"]);
    let indexed = "SELECT action FROM gateway_activity INDEXED BY gateway_activity_meter_unlinked \
                   WHERE NOT via_reading AND meter_id = 'm'";
    assert_eq!(strings(&db, indexed).await, ["ble -70 dBm"]);
    assert!(strings(&db, "SELECT name FROM sqlite_master WHERE name = 'gateway_activity_meter'").await.is_empty());
}
