//! Consumption rollups through ingest's API: readings sent over MQTT are
//! summed per meter per hour and per day, per gateway and over the network
//! per day, and per month on the way out; the sums equal the raw records; a
//! redelivered reading adds nothing; bad ranges are named.

use chrono::Datelike;
use serde_json::{Value, json};
use wm_domain::Clock;
use wm_http::auth::Role;
use wm_proto::{Envelope, Payload, topics};

use crate::helpers::{Gateway, TestApp, address, eventually, gateway, json_when, known, meter, spawn_each};

fn reading(id: u64, at: &str, meter: u32, record: u64, unit: &str) -> String {
    json!({"messageId": id, "timestamp": at, "meter": address(0xC0, meter), "record": record, "unit": unit}).to_string()
}

/// The series at `query`, as (volume ml, readings) per bucket.
async fn buckets(app: &TestApp, query: &str) -> Vec<(i64, i64)> {
    let series = app.json(&format!("/api/rollups?{query}"), 200).await;
    let points = series["points"].as_array().unwrap();
    points.iter().map(|p| (p["volumeMl"].as_i64().unwrap(), p["readings"].as_i64().unwrap())).collect()
}

/// Midnight UTC four days before the test's clock, and an instant `days`
/// later at `hh:mm` (UTC), RFC 3339: recent enough for the retention.
struct Days(chrono::NaiveDate);

impl Days {
    fn of(app: &TestApp) -> Self {
        Self(app.clock.now().date_naive() - chrono::Days::new(4))
    }

    fn at(&self, days: u64, time: &str) -> String {
        format!("{}T{time}:00Z", self.0 + chrono::Days::new(days))
    }

    fn day(&self, days: u64) -> String {
        (self.0 + chrono::Days::new(days)).to_string()
    }
}

#[tokio::test]
async fn readings_are_rolled_up_per_hour_day_and_month_once_each() {
    for app in spawn_each().await {
        let gw_id = gateway(&app, 1).await;
        let meters = [meter(&app, 1).await, meter(&app, 2).await];
        known(&app, 1, 2).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let d = Days::of(&app);
        let sent = [
            (1, d.at(0, "08:10"), 1, 10, "L"),
            (2, d.at(0, "08:50"), 1, 250, "mL"),
            (3, d.at(0, "10:00"), 1, 5, "L"),
            (4, d.at(1, "03:00"), 1, 7, "L"),
            (5, d.at(0, "09:00"), 2, 1, "L"),
        ];
        for (id, at, meter, record, unit) in &sent {
            gw.send("reading", reading(*id, at, *meter, *record, unit)).await;
        }
        gw.acked(sent.len()).await;
        let week = format!("from={}&to={}", d.day(0), d.day(7));
        let total =
            async |query: &str| app.json(&format!("/api/rollups?{query}"), 200).await["totalMl"].as_i64().unwrap();
        eventually("the network's rollup", || async { (total(&week).await == 23_250).then_some(()) }).await;

        let m1 = &meters[0];
        let hours =
            buckets(&app, &format!("meter={m1}&bucket=hour&from={}&to={}", d.at(0, "08:00"), d.at(0, "11:00"))).await;
        assert_eq!(hours, [(10_250, 2), (0, 0), (5_000, 1)]);
        let days = buckets(&app, &format!("meter={m1}&from={}&to={}", d.day(0), d.day(2))).await;
        assert_eq!(days, [(15_250, 3), (7_000, 1)]);
        let gateway_days =
            buckets(&app, &format!("gateway={gw_id}&bucket=day&from={}&to={}", d.day(0), d.day(2))).await;
        assert_eq!(gateway_days, [(16_250, 4), (7_000, 1)]);
        // To a day of the next month: two months, whatever today's date (40
        // days from the 22nd on reached a third month, and failed).
        let first = d.0.with_day(1).unwrap();
        let next_month = first.checked_add_months(chrono::Months::new(1)).unwrap() + chrono::Days::new(20);
        let months =
            app.json(&format!("/api/rollups?meter={m1}&bucket=month&from={}&to={next_month}", d.day(0)), 200).await;
        let first_of_month = format!("{first}T00:00:00.000000Z");
        assert_eq!(months["points"][0]["start"], first_of_month.as_str());
        assert_eq!((months["totalMl"].as_i64(), months["points"].as_array().map(Vec::len)), (Some(22_250), Some(2)));
        assert_eq!((months["scope"].as_str(), months["timeZone"].as_str()), (Some("meter"), Some("UTC")));

        // The rollups sum exactly the raw records the spec's API lists.
        for (m, expected) in meters.iter().zip([22_250, 1_000]) {
            let records = app.json(&format!("/api/proxy/wmeters/consumption/{m}?max=100"), 200).await;
            let raw: f64 = records.as_array().unwrap().iter().map(|r| r["record"].as_f64().unwrap()).sum();
            assert_eq!(total(&format!("meter={m}&{week}")).await, expected);
            assert!((raw * 1000.0 - expected as f64).abs() < 1e-6, "{raw} L against {expected} mL");
        }

        // A redelivered reading adds nothing: the log's readings go again,
        // then a new one on the same meter, counted only after them.
        let mut again: Vec<Envelope> = app.events(topics::READINGS).await;
        let Some(Payload::ReadingReceived(template)) = again[0].payload.clone() else { panic!("{again:?}") };
        let marker = Payload::ReadingReceived(wm_proto::v1::ReadingReceived { record: 3, message_id: 99, ..template });
        let at = chrono::DateTime::parse_from_rfc3339(&d.at(0, "12:00")).unwrap().to_utc();
        again.push(Envelope::new(again[0].device_id.clone(), "gateway:GW00000001", marker).with_occurred_at(at));
        app.publish(&again).await;
        eventually("the new reading", || async { (total(&week).await >= 26_250).then_some(()) }).await;
        assert_eq!(total(&week).await, 26_250);
    }
}

#[tokio::test]
async fn bad_series_queries_are_named_and_viewers_read() {
    for app in spawn_each().await {
        let gw = gateway(&app, 1).await;
        let m = meter(&app, 1).await;
        let (too_many_hours, gateway_hours, both) = (
            format!("meter={m}&bucket=hour&from=2026-01-01&to=2026-03-01"),
            format!("gateway={gw}&bucket=hour&from=2026-11-01&to=2026-11-02"),
            format!("meter={m}&gateway={gw}"),
        );
        let bad = [
            ("bucket=week", "bucket"),
            ("from=2026-11-20&to=2026-11-10", "from"),
            ("from=yesterday", "from"),
            ("to=", "to"),
            (too_many_hours.as_str(), "to"),
            ("bucket=day&from=2020-01-01&to=2026-01-01", "to"),
            ("tz=Mars/Olympus_Mons", "tz"),
            ("tz=Europe/Paris&bucket=day", "tz"),
            (gateway_hours.as_str(), "bucket"),
            ("meter=not-an-id", "meter"),
            (both.as_str(), "gateway"),
        ];
        for (query, field) in bad {
            let body = app.json(&format!("/api/rollups?{query}"), 400).await;
            assert!(body["fields"][field].is_string(), "{query}: {body}");
        }
        let hours_in_paris = format!("meter={m}&bucket=hour&tz=Europe/Paris&from=2026-11-01&to=2026-11-02");
        assert_eq!(buckets(&app, &hours_in_paris).await.len(), 24);
        let response = app.send_as(Role::Viewer, reqwest::Method::GET, "/api/rollups", None).await;
        assert_eq!(response.status(), 200);
        let body: Value =
            json_when(&app, "/api/rollups", |b| b["points"].as_array().is_some_and(|p| p.len() >= 30)).await;
        assert_eq!(body["totalMl"], 0);
    }
}
