//! The search's index of suffixes (migration 8): kept in step with each
//! device's identifiers by the database's triggers, on both backends, and
//! set aside for a term too common for it.

use std::collections::BTreeSet;

use reqwest::Method;
use serde_json::{Value, json};
use wm_http::auth::Role;
use wm_proto::{Payload, v1::MeterRegistered};
use wm_storage::with_pool;

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
async fn load_meters(app: &TestApp, count: u64) {
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
    let mut tx = app.db().begin_write().await.unwrap();
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
        load_meters(&app, METERS).await;
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
