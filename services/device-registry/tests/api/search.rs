//! The search's index of suffixes (migration 8): kept in step with each
//! device's identifiers by the database's triggers, on both backends, and
//! set aside for a term too common for it.

use std::collections::BTreeSet;

use reqwest::Method;
use serde_json::{Value, json};
use wm_device_registry::storage::{rows::MeterRow, search::containing};
use wm_http::auth::Role;
use wm_proto::{Payload, v1::MeterRegistered};
use wm_storage::{DatabaseSettings, Db, with_pool};
use wm_test_support::TestDb;

use super::{gateway_body, register};
use crate::helpers::{TestApp, spawn_each};

/// What the index should hold for a search text: every suffix of three
/// characters or more of each `|`-separated identifier.
fn suffixes_of(search_text: &str) -> BTreeSet<String> {
    search_text
        .split('|')
        .flat_map(|part| {
            let chars: Vec<char> = part.chars().collect();
            (0..chars.len().saturating_sub(2)).map(move |i| chars[i..].iter().collect::<String>())
        })
        .collect()
}

/// The gateway's search text and the suffixes the index holds for it.
async fn indexed(app: &TestApp, id: &str) -> (Option<String>, BTreeSet<String>) {
    let (text, suffixes): (Option<String>, Vec<String>) = with_pool!(app.db(), pool => async {
        let text: Option<String> = sqlx::query_scalar("SELECT search_text FROM gateways WHERE id = $1")
            .bind(id)
            .fetch_optional(pool)
            .await?;
        let suffixes = sqlx::query_scalar(
            "SELECT s.suffix FROM gateways_suffixes s \
             WHERE s.registered_at = (SELECT registered_at FROM gateways WHERE id = $1)",
        )
        .bind(id)
        .fetch_all(pool)
        .await?;
        Ok::<_, sqlx::Error>((text, suffixes))
    }.await)
    .unwrap();
    (text, suffixes.into_iter().collect())
}

#[tokio::test]
async fn the_index_holds_each_identifier_s_suffixes_through_edits_and_deletion() {
    for app in spawn_each().await {
        let gateway = register(&app, "gateways", gateway_body(7)).await;
        let (text, held) = indexed(&app, &gateway).await;
        let text = text.unwrap();
        assert_eq!(held, suffixes_of(&text), "{text}");
        assert!(held.contains("0600000007") && !held.iter().any(|s| s.contains('|')), "{held:?}");

        let path = format!("/api/proxy/gateways/{gateway}");
        let patch = json!({"phoneNumber": "0799999999"});
        assert_eq!(app.send_as(Role::Operator, Method::PATCH, &path, Some(patch)).await.status(), 200);
        let (text, held) = indexed(&app, &gateway).await;
        let text = text.unwrap();
        assert!(text.contains("0799999999"), "{text}");
        assert_eq!(held, suffixes_of(&text), "the old number's suffixes are gone, the new one's come");

        let registered_at: i64 = with_pool!(app.db(), pool =>
            sqlx::query_scalar("SELECT registered_at FROM gateways WHERE id = $1").bind(&gateway).fetch_one(pool).await)
        .unwrap();
        assert_eq!(app.send_as(Role::Operator, Method::DELETE, &path, None).await.status(), 204);
        let left: i64 = with_pool!(app.db(), pool =>
            sqlx::query_scalar("SELECT count(*) FROM gateways_suffixes WHERE registered_at = $1")
                .bind(registered_at)
                .fetch_one(pool)
                .await)
        .unwrap();
        assert_eq!(left, 0, "a deleted gateway leaves nothing in the index");
    }
}

/// Meters `CT00000000`… loaded as `wmeter seed` loads them, a millisecond
/// apart.
async fn load_meters(db: &Db, count: u64) {
    let start = chrono::Utc::now() - chrono::Duration::days(1);
    let events: Vec<Payload> = (0..count)
        .map(|m| {
            Payload::MeterRegistered(MeterRegistered {
                id: format!("c0ffee01{m:016x}"),
                serial_number: format!("CT{m:08}"),
                ble_address: format!("D0:00:00:{:02X}:{:02X}:{:02X}", m >> 16, (m >> 8) & 0xFF, m & 0xFF),
                gps: None,
                device_name: format!("W-CT{m:08}"),
                registered_at: Some(wm_proto::time::to_timestamp(start + chrono::Duration::milliseconds(m as i64))),
            })
        })
        .collect();
    let mut tx = db.begin_write().await.unwrap();
    wm_device_registry::seed::registrations(&mut tx, &events).await.unwrap();
    tx.commit().await.unwrap();
}

async fn serials(app: &TestApp, q: &str) -> Vec<String> {
    let found: Value = app.json(&format!("/api/proxy/search?q={q}&radius=0"), 200).await;
    found.as_array().unwrap().iter().map(|d| d["serialNumber"].as_str().unwrap().to_owned()).collect()
}

/// A term held by more devices than the index is worth reading for is
/// answered from the devices newest first: the same newest page, in the
/// same order, as a rare term gets from the index.
#[tokio::test]
async fn a_common_term_and_a_rare_one_both_find_their_newest_holders_first() {
    const METERS: u64 = 5_200;
    for app in spawn_each().await {
        load_meters(app.db(), METERS).await;
        let newest: Vec<String> = (METERS - 100..METERS).rev().map(|m| format!("CT{m:08}")).collect();
        assert_eq!(serials(&app, "ct0").await, newest, "held by all {METERS}: the newest 100");
        let thousand: Vec<String> = (900..1000).rev().map(|m| format!("CT{m:08}")).collect();
        assert_eq!(serials(&app, "CT00000").await, thousand, "held by 1,000: the newest 100 of them");
        let rare: Vec<String> = (5_190..5_200).rev().map(|m| format!("CT{m:08}")).collect();
        assert_eq!(serials(&app, "CT0000519").await, rare, "held by ten");
        assert_eq!(serials(&app, "CT").await, newest, "shorter than any suffix");
        assert_eq!(serials(&app, "w-ct00000004").await, ["CT00000004"], "a whole name");
    }
}

/// On PostgreSQL a search is planned once per connection, not at each
/// execution. Planning it anew took longer than running it
/// (docs/performance.md §3). It holds at any size because the planner's
/// estimate for a search is the same whatever its term: a generic plan is
/// then never dearer than one made for the term, and after its first five
/// runs PostgreSQL keeps the generic one.
#[tokio::test]
async fn postgresql_plans_a_search_once_and_keeps_the_plan() {
    let Some(test_db) = TestDb::postgres().await else { return };
    test_db.db().migrate(&wm_device_registry::MIGRATIONS).await.unwrap();
    load_meters(test_db.db(), 300).await;
    // Statistics, as autovacuum keeps them on a live database.
    with_pool!(test_db.db(), pool => sqlx::query("ANALYZE").execute(pool).await.map(drop)).unwrap();
    // One connection, so every search uses the same prepared statement.
    let db = Db::connect(&DatabaseSettings { max_connections: 1, ..test_db.settings().clone() }).await.unwrap();
    for m in 0..20 {
        let found = containing::<MeterRow>(&db, &format!("CT{m:07}"), 100).await.unwrap();
        let serials: Vec<&str> = found.iter().map(|meter| meter.serial_number.as_str()).collect();
        let held: Vec<String> = (m * 10..m * 10 + 10).rev().map(|n| format!("CT{n:08}")).collect();
        assert_eq!(serials, held, "CT{m:07}: its ten holders, newest first");
    }
    let (statement, generic, custom): (String, i64, i64) = with_pool!(&db, pool => sqlx::query_as(
        "SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements \
         WHERE statement LIKE '%meters_suffixes%'",
    )
    .fetch_one(pool)
    .await)
    .unwrap();
    assert!(custom <= 5 && generic + custom == 20, "generic {generic}, custom {custom}: planned at each search");

    // The estimate for a term ten meters hold, and for one all 300 hold:
    // the plan's first line, its total cost and rows.
    let mut estimates = Vec::new();
    for term in ["CT0000001", "CT"] {
        let plan: Vec<String> = with_pool!(&db, pool => sqlx::query_scalar(
            sqlx::AssertSqlSafe(format!("EXPLAIN {statement}")))
            .bind(term)
            .bind(format!("{term}\u{10FFFF}"))
            .fetch_all(pool)
            .await)
        .unwrap();
        estimates.push(plan[0].clone());
    }
    assert_eq!(estimates[0], estimates[1], "the estimate depends on the term");
}
