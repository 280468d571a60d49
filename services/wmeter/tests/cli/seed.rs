//! `wmeter seed`: a synthetic network, readable through the API as if it had
//! been registered and had reported; only into an empty database.

use std::{
    io::{BufRead, BufReader},
    process::Command,
    time::Duration,
};

use crate::{add_user, plain_http, run, serve, wait, wmeter};

#[test]
fn a_seeded_network_reads_back_through_the_api() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}/wm.db", dir.path().display());
    let seed = |args: &[&str]| {
        let output = wmeter().arg("seed").args(args).env("WMETER_DATABASE__URL", &db).output().unwrap();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (output.status.code().unwrap_or(-1), text(&output.stdout), text(&output.stderr))
    };
    let (code, out, err) = seed(&["--gateways", "3", "--meters", "30", "--readings", "90", "--batch", "7"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("seeded 3 gateways and 30 water meters in "), "{out}");
    assert!(out.contains("\nseeded 90 readings in "), "{out}");

    // The indexes the load left out (by time, by gateway) are back, as the migrations define them.
    let migrated = tempfile::tempdir().unwrap();
    let migrated_db = format!("sqlite://{}/wm.db", migrated.path().display());
    let (code, err) = run(wmeter().arg("migrate").env("WMETER_DATABASE__URL", &migrated_db));
    assert_eq!(code, 0, "{err}");
    let seeded_indexes = indexes(&db);
    assert!(seeded_indexes.iter().any(|(name, _)| name == "gateway_activity_gateway"), "{seeded_indexes:?}");
    assert_eq!(seeded_indexes, indexes(&migrated_db));

    let (code, _, err) = seed(&["--gateways", "1", "--meters", "1", "--readings", "1"]);
    assert_eq!(code, 1);
    assert!(err.contains("the database already holds 3 gateways: seed an empty database"), "{err}");
    let (code, _, err) = seed(&["--meters", "0", "--readings", "5"]);
    assert_eq!(code, 1);
    assert!(err.contains("--readings needs at least one meter"), "{err}");
    let (code, err) = run(wmeter().args(["seed", "--gateways", "0"]));
    assert_eq!(code, 2, "a usage error: {err}");

    add_user(dir.path(), "ann", "operator", "a-long-password");
    let mut child = serve(dir.path(), &["serve"]);
    // Kept open to the end: serve prints more after its banner, and a closed
    // pipe would fail that print.
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let banner = stdout.next().unwrap().unwrap();
    let url = banner.strip_prefix("w-meter is running at ").expect(&banner).to_owned();
    let token = plain_http::sign_in(&url, "ann", "a-long-password");
    let get = |path: &str| plain_http::get_json(&format!("{url}/api/proxy/{path}"), &token);

    assert_eq!(get("gateways/count")["count"], 3);
    assert_eq!(get("wmeters/count")["count"], 30);
    // Reading i is meter i × 30 / 90's, heard by gateway meter % 3, of 1 + i % 50 litres.
    let meter = get("wmeters/serial/SM00000007");
    let litres: u64 = [21, 22, 23].iter().map(|i| 1 + i % 50).sum();
    assert_eq!(meter["totalConsumption"], serde_json::json!(litres as f64), "{meter}");
    assert_eq!(meter["lastGatewayId"], format!("5eed0000{:016x}", 1), "{meter}");
    assert!(meter["lastseen"].is_string(), "{meter}");
    let gateway = get("gateways/serial/SG00000001");
    assert_eq!((&gateway["recordsCount"], &gateway["waterMetersCount"]), (&30.into(), &10.into()), "{gateway}");
    let activity = get(&format!("gateways/gateway-activity/{}?max=50", gateway["_id"].as_str().unwrap()));
    assert_eq!(activity.as_array().unwrap().len(), 30, "one activity per reading");
    assert_eq!(get("search?q=SM0000002&radius=0").as_array().unwrap().len(), 10);
    // The network's and the gateways' days, added once after the load, hold every reading.
    let rollups = |query: &str| plain_http::get_json(&format!("{url}/api/rollups?bucket=day{query}"), &token);
    let litres_ml = |gateway: Option<u64>| -> u64 {
        (0..90u64).filter(|i| gateway.is_none_or(|g| (i / 3) % 3 == g)).map(|i| (1 + i % 50) * 1000).sum()
    };
    assert_eq!(rollups("")["totalMl"], litres_ml(None), "the network");
    let gateway_id = gateway["_id"].as_str().unwrap();
    assert_eq!(rollups(&format!("&gateway={gateway_id}"))["totalMl"], litres_ml(Some(1)), "gateway 1");

    Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    wait(&mut child, Duration::from_secs(30)).expect("stops on SIGTERM");
}

#[test]
fn on_postgresql_a_seed_leaves_every_table_vacuumed_and_analysed() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let Some(kafka) = wm_test_support::log::kafka() else { return };
    let Some(db) = runtime.block_on(wm_test_support::TestDb::postgres()) else { return };
    let output = wmeter()
        .args(["seed", "--gateways", "2", "--meters", "6", "--readings", "30", "--batch", "7"])
        .env("WMETER_DATABASE__URL", &db.settings().url)
        .env("WMETER_EVENT_LOG__KIND", "kafka")
        .env("WMETER_EVENT_LOG__BROKERS", &kafka.brokers)
        .env("WMETER_EVENT_LOG__NAMESPACE", &kafka.namespace)
        .env("WMETER_EVENT_LOG__REPLICATION_FACTOR", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{err}");
    assert!(err.contains("database: vacuumed and analysed in "), "{err}");

    // Every table with storage, each month's partition of the readings among them.
    let sql = "SELECT s.relname::text, s.last_vacuum IS NOT NULL AND s.last_analyze IS NOT NULL \
               FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE c.relkind = 'r' ORDER BY 1";
    let pool = db.postgres().unwrap();
    let tables: Vec<(String, bool)> = runtime.block_on(sqlx::query_as(sql).fetch_all(pool)).unwrap();
    assert!(tables.iter().any(|(name, _)| name.starts_with("readings_m")), "{tables:?}");
    let unsettled: Vec<_> = tables.iter().filter(|(_, settled)| !settled).collect();
    assert!(unsettled.is_empty(), "not vacuumed and analysed: {unsettled:?}");
}

/// Every index of the SQLite database at `url`: its name and definition.
fn indexes(url: &str) -> Vec<(String, String)> {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let pool = sqlx::SqlitePool::connect(url).await.unwrap();
        let sql = "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name";
        let rows = sqlx::query_as(sql).fetch_all(&pool).await.unwrap();
        pool.close().await;
        rows
    })
}
