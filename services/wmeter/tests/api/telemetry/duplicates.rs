//! 10,000 readings at QoS 1, 5% of them sent twice: exactly 10,000
//! consumption records.

use serde_json::json;
use wm_domain::Clock;

use super::{Gateway, known, rows};
use crate::{
    helpers::{eventually, spawn_each},
    suite::{gateway_body, meter_body, register},
};

const READINGS: u64 = 10_000;

#[tokio::test]
async fn resent_readings_are_kept_once() {
    // One gateway sends 10,500 readings as fast as it can: no rate limit.
    for app in spawn_each(|s| s.telemetry.gateway_rate_per_sec = 0).await {
        register(&app, "gateways", gateway_body(1)).await;
        let meter = register(&app, "wmeters", meter_body(1)).await;
        known(&app, 1, 1).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let now = app.clock.now().to_rfc3339();
        let mut sent = 0;
        for id in 1..=READINGS {
            let payload =
                json!({"messageId": id, "timestamp": now, "meter": "C0:00:00:00:00:01", "record": 1, "unit": "L"})
                    .to_string();
            let copies = if id % 20 == 0 { 2 } else { 1 };
            for _ in 0..copies {
                gw.send("reading", payload.clone()).await;
                sent += 1;
            }
        }
        gw.acked(sent).await;
        assert_eq!(sent, 10_500);
        eventually("every reading is in", || async {
            (rows(&app, "SELECT COUNT(*) FROM ingest_messages").await == READINGS as i64).then_some(())
        })
        .await;
        assert_eq!(rows(&app, "SELECT COUNT(*) FROM readings").await, READINGS as i64);
        let page = app.json(&format!("/api/proxy/wmeters/consumption/{meter}?max=500"), 200).await;
        assert_eq!(page.as_array().unwrap().len(), 500);
        eventually("the total is the sum of the kept records", || async {
            let total = app.json(&format!("/api/proxy/wmeters/{meter}"), 200).await["totalConsumption"].clone();
            (total == json!(READINGS as f64)).then_some(())
        })
        .await;
    }
}

/// A gateway whose message-id counter started over (a reset) sends ids it
/// used before, with later timestamps: those readings are new, and a resend
/// among them is still kept once (telemetry migration 14).
#[tokio::test]
async fn a_gateway_whose_counter_started_over_is_not_taken_for_resending() {
    for app in spawn_each(|_| {}).await {
        register(&app, "gateways", gateway_body(1)).await;
        let meter = register(&app, "wmeters", meter_body(1)).await;
        known(&app, 1, 1).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let reading = |id: u64, minutes_ago: i64, record: u64| {
            let at = (app.clock.now() - chrono::Duration::minutes(minutes_ago)).to_rfc3339();
            json!({"messageId": id, "timestamp": at, "meter": "C0:00:00:00:00:01", "record": record, "unit": "L"})
                .to_string()
        };
        let before_reset: Vec<String> = (1..=3).map(|id| reading(id, 60 - id as i64, id)).collect();
        for payload in &before_reset {
            gw.send("reading", payload.clone()).await;
        }
        gw.send("reading", before_reset[1].clone()).await; // a resend, kept once
        for id in 1..=3 {
            gw.send("reading", reading(id, 10 - id as i64, 10 + id)).await;
        }
        gw.acked(7).await;

        eventually("every uplink is claimed", || async {
            (rows(&app, "SELECT COUNT(*) FROM ingest_messages").await == 6).then_some(())
        })
        .await;
        assert_eq!(rows(&app, "SELECT COUNT(*) FROM readings").await, 6);
        let page = app.json(&format!("/api/proxy/wmeters/consumption/{meter}?max=500"), 200).await;
        assert_eq!(page.as_array().unwrap().len(), 6, "{page}");
    }
}
