//! Exports, gateway traffic and the top consumers through ingest's API
//! (docs/analytics.md): the billing index at an instant and a consumption
//! series as CSV, parsed back with a CSV reader and summed against the raw
//! records; a gateway's uplinks and the meters it heard per day, each once;
//! the meters that used the most; bad parameters named.

use chrono::{DateTime, DurationRound, TimeDelta, Utc};
use serde_json::{Value, json};
use wm_domain::Clock;
use wm_http::auth::Role;
use wm_proto::topics;

use crate::helpers::{Gateway, TestApp, address, eventually, gateway, known, meter, spawn_each};

fn iso(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
}

/// The CSV at `path`: its header and records, and the file name it is saved as.
async fn csv_at(app: &TestApp, path: &str) -> (Vec<String>, Vec<Vec<String>>, String) {
    let response = app.get_as(Role::Admin, path).await;
    assert_eq!(response.status(), 200, "{path}");
    let headers = response.headers().clone();
    assert_eq!(headers["content-type"], "text/csv; charset=utf-8");
    let disposition = headers["content-disposition"].to_str().unwrap().to_owned();
    let body = response.text().await.unwrap();
    let mut reader = csv::Reader::from_reader(body.as_bytes());
    let header = reader.headers().unwrap().iter().map(str::to_owned).collect();
    let records = reader.records().map(|r| r.unwrap().iter().map(str::to_owned).collect()).collect();
    (header, records, disposition)
}

/// Litres with three decimals as millilitres.
fn ml(litres: &str) -> i64 {
    (litres.parse::<f64>().unwrap() * 1000.0).round() as i64
}

fn reading(id: u64, at: DateTime<Utc>, meter: u32, litres: u64) -> String {
    json!({"messageId": id, "timestamp": at.to_rfc3339(), "meter": address(0xC0, meter), "record": litres, "unit": "L"})
        .to_string()
}

#[tokio::test]
async fn the_meter_index_at_an_instant_is_what_each_meter_counted_before_it() {
    for app in spawn_each().await {
        gateway(&app, 1).await;
        let meters = [meter(&app, 1).await, meter(&app, 2).await, meter(&app, 3).await];
        known(&app, 1, 3).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let hour = app.clock.now().duration_trunc(TimeDelta::hours(1)).unwrap();
        // (hours before the clock's hour, meter, litres); meter 3 counts nothing.
        let sent = [(50, 1, 100), (30, 1, 20), (5, 1, 3), (1, 1, 7), (49, 2, 40), (2, 2, 1)];
        for (i, (hours, m, litres)) in sent.iter().enumerate() {
            let at = hour - TimeDelta::hours(*hours) + TimeDelta::minutes(10);
            gw.send("reading", reading(i as u64 + 1, at, *m, *litres)).await;
        }
        gw.acked(sent.len()).await;
        let total = async || app.json("/api/rollups", 200).await["totalMl"].as_i64();
        eventually("the rollups", || async { (total().await == Some(171_000)).then_some(()) }).await;

        // Three hours before the clock's hour: the readings before it count.
        let at = hour - TimeDelta::hours(3);
        let path = format!("/api/exports/meter-index?at={}", iso(at + TimeDelta::minutes(20)));
        let (header, records, disposition) = csv_at(&app, &path).await;
        assert_eq!(header, ["meter_id", "serial_number", "device_name", "index_litres", "as_of"]);
        let expected = |m: u32| -> i64 {
            sent.iter()
                .filter(|(h, mm, _)| *mm == m && hour - TimeDelta::hours(*h) < at)
                .map(|s| s.2 as i64 * 1000)
                .sum()
        };
        let index: Vec<(String, i64, String)> =
            records.iter().map(|r| (r[0].clone(), ml(&r[3]), r[4].clone())).collect();
        assert_eq!(
            index,
            [
                (meters[0].clone(), expected(1), iso(at)),
                (meters[1].clone(), expected(2), iso(at)),
                (meters[2].clone(), 0, iso(at))
            ]
        );
        assert_eq!((expected(1), expected(2)), (123_000, 40_000));
        assert!(disposition.contains("attachment") && disposition.contains("meter-index-"), "{disposition}");
        assert_eq!(records[0][1..3], ["WM00000001".to_owned(), "W-WM00000001".to_owned()]);

        // Now, the index is each meter's whole consumption, as the raw records sum it.
        let (_, now, _) = csv_at(&app, "/api/exports/meter-index").await;
        for (record, id) in now.iter().zip(&meters) {
            let raw = app.json(&format!("/api/proxy/wmeters/consumption/{id}?max=100"), 200).await;
            let litres: f64 = raw.as_array().unwrap().iter().map(|r| r["record"].as_f64().unwrap()).sum();
            assert_eq!(ml(&record[3]), (litres * 1000.0).round() as i64, "{id}");
        }
        // A filtered list: by text, by ids.
        let (_, by_text, _) = csv_at(&app, "/api/exports/meter-index?q=wm00000002").await;
        assert_eq!(by_text.iter().map(|r| r[0].clone()).collect::<Vec<_>>(), [meters[1].clone()]);
        let ids = format!("/api/exports/meter-index?meters={},{}", meters[2], meters[0]);
        let (_, by_id, _) = csv_at(&app, &ids).await;
        assert_eq!(by_id.iter().map(|r| r[0].clone()).collect::<Vec<_>>(), [meters[0].clone(), meters[2].clone()]);

        for (bad, field) in [("at=yesterday", "at"), ("meters=nope", "meters")] {
            let body = app.json(&format!("/api/exports/meter-index?{bad}"), 400).await;
            assert!(body["fields"][field].is_string(), "{bad}: {body}");
        }
        let many = vec![meters[0].as_str(); 1001].join(",");
        let body = app.json(&format!("/api/exports/meter-index?meters={many}"), 400).await;
        assert!(body["fields"]["meters"].is_string(), "{body}");
    }
}

#[tokio::test]
async fn a_consumption_export_is_the_series_as_csv() {
    for app in spawn_each().await {
        gateway(&app, 1).await;
        let m = meter(&app, 1).await;
        known(&app, 1, 1).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let day = app.clock.now().duration_trunc(TimeDelta::days(1)).unwrap();
        for (i, (days, litres)) in [(3, 5), (3, 6), (1, 9)].iter().enumerate() {
            gw.send("reading", reading(i as u64 + 1, day - TimeDelta::days(*days) + TimeDelta::hours(8), 1, *litres))
                .await;
        }
        gw.acked(3).await;
        let query = format!("meter={m}&bucket=day&from={}&to={}", iso(day - TimeDelta::days(4)), iso(day));
        let series = eventually("the rollups", || async {
            let series = app.json(&format!("/api/rollups?{query}"), 200).await;
            (series["totalMl"] == 20_000).then_some(series)
        })
        .await;
        let (header, records, disposition) = csv_at(&app, &format!("/api/exports/consumption?{query}")).await;
        assert_eq!(header, ["start", "end", "volume_litres", "readings"]);
        let starts: Vec<Value> = series["points"].as_array().unwrap().iter().map(|p| p["start"].clone()).collect();
        assert_eq!(records.iter().map(|r| json!(r[0])).collect::<Vec<_>>(), starts);
        assert_eq!(records.iter().map(|r| ml(&r[2])).collect::<Vec<_>>(), [0, 11_000, 0, 9_000]);
        assert_eq!(records[1][1], records[2][0], "a bucket ends where the next starts");
        assert!(disposition.contains("consumption-meter-day-"), "{disposition}");
        let body = app.json("/api/exports/consumption?bucket=week", 400).await;
        assert!(body["fields"]["bucket"].is_string(), "{body}");
    }
}

#[tokio::test]
async fn a_gateway_day_counts_its_uplinks_and_each_meter_it_heard_once() {
    for app in spawn_each().await {
        let gw_id = gateway(&app, 1).await;
        meter(&app, 1).await;
        meter(&app, 2).await;
        known(&app, 1, 2).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let now = app.clock.now();
        let at = now.to_rfc3339();
        let uplinks = [
            ("heartbeat", json!({"messageId": 1, "timestamp": at})),
            ("reading", json!({"messageId": 2, "timestamp": at, "meter": address(0xC0, 1), "record": 1, "unit": "L"})),
            ("ble", json!({"messageId": 3, "timestamp": at, "meter": address(0xC0, 1), "rssi": -70})),
            ("ble", json!({"messageId": 4, "timestamp": at, "meter": address(0xC0, 2), "rssi": -80})),
        ];
        for (kind, body) in &uplinks {
            gw.send(kind, body.to_string()).await;
        }
        gw.acked(uplinks.len()).await;
        let path = format!("/api/traffic?gateway={gw_id}");
        let today = async || app.json(&path, 200).await["points"].as_array().unwrap().last().cloned().unwrap();
        let day = eventually("the gateway's traffic", || async {
            let day = today().await;
            (day["uplinks"] == 4).then_some(day)
        })
        .await;
        assert_eq!(day["meters"], 2);
        // Every uplink's activity delivered again counts nothing.
        let activity = app.events(topics::GATEWAY_ACTIVITY).await;
        app.publish(&activity).await;
        gw.send("heartbeat", json!({"messageId": 5, "timestamp": at}).to_string()).await;
        gw.acked(1).await;
        eventually("the next uplink", || async { (today().await["uplinks"] == 5).then_some(()) }).await;
        assert_eq!(today().await["meters"], 2);
        let month = app.json(&path, 200).await;
        assert_eq!(month["points"].as_array().unwrap().len(), 31, "30 days back from now: 31 days");
        let body = app.json("/api/traffic?gateway=x", 400).await;
        assert!(body["fields"]["gateway"].is_string(), "{body}");
    }
}

#[tokio::test]
async fn the_top_consumers_are_the_meters_that_used_the_most_in_the_last_days() {
    for app in spawn_each().await {
        gateway(&app, 1).await;
        let meters = [meter(&app, 1).await, meter(&app, 2).await, meter(&app, 3).await];
        known(&app, 1, 3).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let now = app.clock.now();
        // Meter 3 used the most, but ten days ago.
        let sent = [(1, 1, 30), (2, 2, 50), (3, 1, 25), (4, 3, 500)];
        for (id, m, litres) in sent {
            let at = if m == 3 { now - TimeDelta::days(10) } else { now - TimeDelta::hours(i64::from(m)) };
            gw.send("reading", reading(id, at, m, litres)).await;
        }
        gw.acked(sent.len()).await;
        eventually("the rollups", || async {
            let total = app.json("/api/rollups?bucket=day", 200).await["totalMl"].as_i64();
            (total == Some(605_000)).then_some(())
        })
        .await;
        let top = app.json("/api/rollups/top?days=7&limit=2", 200).await;
        let items: Vec<(Value, Value, Value)> = top["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| (i["meterId"].clone(), i["meterName"].clone(), i["volumeMl"].clone()))
            .collect();
        assert_eq!(
            items,
            [
                (json!(meters[0]), json!("W-WM00000001"), json!(55_000)),
                (json!(meters[1]), json!("W-WM00000002"), json!(50_000))
            ]
        );
        for bad in ["days=0", "days=32", "limit=101", "limit=x"] {
            let field = bad.split('=').next().unwrap();
            assert!(app.json(&format!("/api/rollups/top?{bad}"), 400).await["fields"][field].is_string(), "{bad}");
        }
    }
}
