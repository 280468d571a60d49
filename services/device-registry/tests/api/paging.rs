//! The paging contract (DESIGN §6): keyset paging on `registeredAt`, which
//! the registry keeps unique, so no device is skipped or repeated, even
//! among devices registered in the same millisecond (the test clock stands
//! still, so all of these are).

use std::collections::HashSet;

use futures::{StreamExt, stream};
use serde_json::Value;
use wm_domain::Clock;

use super::{ids, meter_body, register};
use crate::helpers::{TestApp, spawn_each};

const DEVICES: u32 = 1000;

async fn register_many(app: &TestApp, n: u32) {
    stream::iter(0..n)
        .for_each_concurrent(8, |i| async move {
            register(app, "wmeters", meter_body(i)).await;
        })
        .await;
}

#[tokio::test]
async fn load_more_pages_through_every_device_once() {
    for app in spawn_each().await {
        register_many(&app, DEVICES).await;
        let mut seen: Vec<String> = Vec::new();
        let mut path = "/api/proxy/wmeters?max=20".to_owned();
        loop {
            let page: Value = app.json(&path, 200).await;
            let page = page.as_array().unwrap().clone();
            if page.is_empty() {
                break;
            }
            assert!(page.len() <= 20);
            let times: Vec<&str> = page.iter().map(|d| d["registeredAt"].as_str().unwrap()).collect();
            assert!(times.windows(2).all(|w| w[0] > w[1]), "newest first, strictly: {times:?}");
            seen.extend(ids(&Value::Array(page.clone())));
            let smallest = times.last().unwrap();
            path = format!("/api/proxy/wmeters?max=20&reverse=true&start={smallest}");
        }
        assert_eq!(seen.len(), DEVICES as usize, "every device");
        assert_eq!(seen.iter().collect::<HashSet<_>>().len(), DEVICES as usize, "none twice");
    }
}

#[tokio::test]
async fn forward_pages_start_at_start_oldest_first() {
    for app in spawn_each().await {
        register_many(&app, 30).await;
        let all = app.json("/api/proxy/wmeters?max=500", 200).await;
        let newest_first: Vec<&str> =
            all.as_array().unwrap().iter().map(|d| d["registeredAt"].as_str().unwrap()).collect();
        assert_eq!(newest_first.len(), 30);
        let tenth_oldest = newest_first[20];
        let forward = app.json(&format!("/api/proxy/wmeters?max=5&reverse=false&start={tenth_oldest}"), 200).await;
        let times: Vec<&str> =
            forward.as_array().unwrap().iter().map(|d| d["registeredAt"].as_str().unwrap()).collect();
        assert_eq!(
            times,
            newest_first[16..=20].iter().rev().copied().collect::<Vec<_>>(),
            "start included, oldest first"
        );
        let tomorrow = (app.clock.now() + chrono::Duration::days(1)).format("%Y-%m-%d").to_string();
        let picker = app.json(&format!("/api/proxy/wmeters?start={tomorrow}&reverse=true"), 200).await;
        assert_eq!(picker.as_array().unwrap().len(), 20, "a date picks the page before that day");
        let yesterday = (app.clock.now() - chrono::Duration::days(1)).format("%Y-%m-%d").to_string();
        let none = app.json(&format!("/api/proxy/wmeters?start={yesterday}&reverse=true"), 200).await;
        assert_eq!(none, Value::Array(Vec::new()));
    }
}
