//! The leak detectors through ingest's API (docs/analytics.md): readings
//! sent over MQTT raise derived alarms with their evidence and clear them
//! as w-meter; a silent meter's alarm clears once its hours are decided;
//! a meter's own thresholds replace the defaults; the same readings give
//! the same alarms whatever the order and however often they arrive.

use chrono::{DateTime, DurationRound, TimeDelta, Utc};
use reqwest::Method;
use serde_json::{Value, json};
use wm_domain::Clock;
use wm_http::auth::Role;
use wm_proto::{Payload, topics};
use wm_telemetry_ingest::{AnalyticsSettings, DetectorSettings};

use crate::helpers::{
    Gateway, TestApp, address, eventually, gateway, json_when, known, meter, send_for, spawn_each, spawn_each_with,
    user,
};

const ANN: (&str, Role) = ("u-ann", Role::Operator);
const VIEWER: (&str, Role) = ("u-vic", Role::Viewer);

/// The whole hour `hours` before the test's clock.
fn hours_ago(app: &TestApp, hours: i64) -> DateTime<Utc> {
    app.clock.now().duration_trunc(TimeDelta::hours(1)).unwrap() - TimeDelta::hours(hours)
}

fn iso(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
}

/// Sends meter `meter`'s reading of `litres[i]` at half past hour `i` after
/// `from`, message ids from `first_id`; waits for ingest's acks.
async fn hourly(gw: &mut Gateway, meter: u32, from: DateTime<Utc>, litres: &[u64], first_id: u64) {
    for (i, l) in litres.iter().enumerate() {
        let at = from + TimeDelta::hours(i as i64) + TimeDelta::minutes(30);
        let body = json!({"messageId": first_id + i as u64, "timestamp": at.to_rfc3339(), "meter": address(0xC0, meter),
            "record": l, "unit": "L"});
        gw.send("reading", body.to_string()).await;
    }
    gw.acked(litres.len()).await;
}

/// The meter's alarms of a detector's type, oldest first, once `ready`.
async fn derived(app: &TestApp, meter: &str, ready: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let types = "continuous-flow,night-flow,burst,stuck-meter";
    let path = format!("/api/alarms?device={meter}&type={types}&sort=raisedAt&order=asc");
    let page = json_when(app, &path, |p| p["items"].as_array().is_some_and(|a| ready(a))).await;
    page["items"].as_array().unwrap().clone()
}

fn of_type<'a>(alarms: &'a [Value], alarm_type: &str) -> Option<&'a Value> {
    alarms.iter().find(|a| a["type"] == alarm_type)
}

#[tokio::test]
async fn a_leak_raises_continuous_and_night_flow_with_their_evidence_and_a_dry_hour_clears_the_first() {
    for app in spawn_each().await {
        gateway(&app, 1).await;
        let m = meter(&app, 1).await;
        known(&app, 1, 1).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let start = hours_ago(&app, 32);
        let mut litres = vec![6; 28];
        litres.extend([0; 4]);
        hourly(&mut gw, 1, start, &litres, 1).await;

        let alarms =
            derived(&app, &m, |a| a.iter().any(|a| a["type"] == "continuous-flow" && a["status"] == "cleared")).await;
        let mut types: Vec<&str> = alarms.iter().map(|a| a["type"].as_str().unwrap()).collect();
        types.sort_unstable();
        assert_eq!(types, ["continuous-flow", "night-flow"], "no burst and no stuck meter");
        let flow = of_type(&alarms, "continuous-flow").unwrap();
        assert_eq!(flow["raisedAt"], iso(start + TimeDelta::hours(24)));
        assert_eq!((flow["severity"].as_str(), flow["status"].as_str()), (Some("major"), Some("cleared")));
        assert_eq!(flow["clearedAt"], iso(start + TimeDelta::hours(29)), "the first dry hour, 28, cleared it");
        let evidence = &flow["details"];
        assert_eq!((evidence["detector"].as_str(), evidence["hours"].as_u64()), (Some("continuous-flow"), Some(24)));
        assert_eq!(
            (evidence["from"].as_str(), evidence["to"].as_str()),
            (Some(iso(start).as_str()), flow["raisedAt"].as_str())
        );
        assert_eq!((evidence["volumeMl"].as_i64(), evidence["minHourlyMl"].as_i64()), (Some(144_000), Some(6_000)));
        assert_eq!(flow["raisedBy"]["id"], "service:telemetry-ingest");

        // A whole night of 6 L an hour; a dry night after it clears it, if
        // the dry hours hold one (it depends on the time of day).
        let night = of_type(&alarms, "night-flow").unwrap();
        assert_eq!(night["severity"], "minor");
        assert_eq!(
            (night["details"]["minHourlyMl"].as_i64(), night["details"]["thresholdMl"].as_i64()),
            (Some(6_000), Some(5_000))
        );

        // The history says who raised and cleared it: w-meter.
        let detail = app.json(&format!("/api/alarms/{}", flow["id"].as_str().unwrap()), 200).await;
        let steps: Vec<&str> =
            detail["history"].as_array().unwrap().iter().map(|h| h["action"].as_str().unwrap()).collect();
        assert_eq!(steps, ["raised", "cleared"]);
    }
}

#[tokio::test]
async fn a_silent_meters_alarm_clears_once_its_silent_hours_are_decided() {
    for app in spawn_each().await {
        gateway(&app, 1).await;
        let m = meter(&app, 1).await;
        known(&app, 1, 1).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let start = hours_ago(&app, 27);
        hourly(&mut gw, 1, start, &[2; 27], 1).await;
        let alarms = derived(&app, &m, |a| of_type(a, "continuous-flow").is_some()).await;
        assert_eq!(of_type(&alarms, "continuous-flow").unwrap()["status"], "active");

        // Nothing more is heard; three hours of silence later, the sweep
        // decides the hours up to then: hour 27 had no flow.
        app.clock.advance(TimeDelta::hours(6));
        let alarms =
            derived(&app, &m, |a| of_type(a, "continuous-flow").is_some_and(|f| f["status"] == "cleared")).await;
        assert_eq!(of_type(&alarms, "continuous-flow").unwrap()["clearedAt"], iso(start + TimeDelta::hours(28)));
    }
}

#[tokio::test]
async fn an_operators_thresholds_for_a_meter_replace_the_defaults_and_are_audited() {
    for app in spawn_each().await {
        gateway(&app, 1).await;
        let m = meter(&app, 1).await;
        known(&app, 1, 1).await;
        user(&app, ANN.0, "ann", wm_proto::v1::Role::Operator).await;
        let path = format!("/api/thresholds/{m}");
        let before = app.json(&path, 200).await;
        let defaults = json!({"continuousFlowHours": 24, "nightFlowLitresPerHour": 5.0, "burstLitresPerHour": 1000.0, "stuckMeterDays": 7});
        assert_eq!((&before["defaults"], &before["effective"]), (&defaults, &defaults));
        assert_eq!(
            before["own"],
            json!({"continuousFlowHours": null, "nightFlowLitresPerHour": null, "burstLitresPerHour": null, "stuckMeterDays": null})
        );

        let put = |who, body: Value| send_for(&app, who, Method::PUT, &path, Some(body));
        let own = json!({"continuousFlowHours": 3.0, "burstLitresPerHour": 10});
        assert_eq!(put(VIEWER, own.clone()).await.0, 403);
        for (bad, field) in [
            (json!({"continuousFlowHours": 1}), "continuousFlowHours"),
            (json!({"nightFlowLitresPerHour": -1}), "nightFlowLitresPerHour"),
            (json!({"burstLitresPerHour": 0.0001}), "burstLitresPerHour"),
            (json!({"stuckMeterDays": 400}), "stuckMeterDays"),
            (json!({"continuousFlowHours": 12.5}), "continuousFlowHours"),
        ] {
            let (status, body) = put(ANN, bad.clone()).await;
            assert_eq!((status, body["fields"][field].is_string()), (400, true), "{bad}: {body}");
        }
        let (status, _) =
            send_for(&app, ANN, Method::PUT, "/api/thresholds/0123456789abcdef01234567", Some(own.clone())).await;
        assert_eq!(status, 404);
        assert!(app.json("/api/thresholds/not-an-id", 400).await["fields"]["id"].is_string());

        let (status, set) = put(ANN, own).await;
        assert_eq!(status, 200, "{set}");
        assert_eq!(
            (set["own"]["continuousFlowHours"].as_u64(), set["own"]["burstLitresPerHour"].as_f64()),
            (Some(3), Some(10.0))
        );
        assert_eq!(
            set["effective"],
            json!({"continuousFlowHours": 3, "nightFlowLitresPerHour": 5.0, "burstLitresPerHour": 10.0, "stuckMeterDays": 7})
        );
        assert_eq!(set["updatedBy"], json!({"id": ANN.0, "name": "ann"}), "named from the auth events");

        // The detectors follow them: 3 hours of flow raise it, 20 L in an
        // hour is a burst, the first dry hour clears both.
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let start = hours_ago(&app, 10);
        hourly(&mut gw, 1, start, &[2, 2, 2, 2, 2, 20, 0, 0, 0, 0], 1).await;
        let alarms = derived(&app, &m, |a| a.len() == 2 && a.iter().all(|a| a["status"] == "cleared")).await;
        let flow = of_type(&alarms, "continuous-flow").unwrap();
        assert_eq!(
            (flow["raisedAt"].as_str(), flow["details"]["thresholdHours"].as_u64()),
            (Some(iso(start + TimeDelta::hours(3)).as_str()), Some(3))
        );
        let burst = of_type(&alarms, "burst").unwrap();
        assert_eq!(burst["raisedAt"], iso(start + TimeDelta::hours(6)));
        assert_eq!(
            (burst["details"]["volumeMl"].as_i64(), burst["details"]["thresholdMl"].as_i64()),
            (Some(20_000), Some(10_000))
        );
        assert_eq!(
            (burst["severity"].as_str(), burst["clearedAt"].as_str()),
            (Some("critical"), Some(iso(start + TimeDelta::hours(7)).as_str()))
        );

        // Back on the defaults.
        let (_, reset) = put(ANN, json!({})).await;
        assert_eq!((&reset["effective"], &reset["updatedBy"]), (&defaults, &Value::Null));
        // A viewer, five values out of range, an unknown meter, and two sets.
        let audited = eventually("the thresholds' audit records", || async {
            let records: Vec<String> = app
                .events(topics::AUDIT)
                .await
                .into_iter()
                .filter_map(|e| match e.payload {
                    Some(Payload::AuditRecorded(r)) if r.action == "meter.thresholds" => Some(r.outcome),
                    _ => None,
                })
                .collect();
            (records.len() >= 9).then_some(records)
        })
        .await;
        assert_eq!(audited.iter().filter(|o| *o == "ok").count(), 2, "{audited:?}");
        assert!(audited.contains(&"forbidden".to_owned()), "{audited:?}");
    }
}

/// The evidence of a meter's derived alarms, without the meter.
async fn findings(app: &TestApp, meter: &str, n: usize) -> Vec<(String, String, String, Value)> {
    derived(app, meter, |a| a.len() == n)
        .await
        .iter()
        .map(|a| {
            let text = |k: &str| a[k].as_str().unwrap_or_default().to_owned();
            (text("type"), text("raisedAt"), text("status"), a["details"].clone())
        })
        .collect()
}

#[tokio::test]
async fn the_same_readings_shuffled_and_redelivered_raise_the_same_alarms() {
    // A reading may come a day late, and 4 hours of flow are a leak: the
    // readings span 14 hours, so nothing is decided before the closing
    // readings, sent last.
    let detectors =
        DetectorSettings { lateness_minutes: 24 * 60, continuous_flow_hours: 4, ..DetectorSettings::default() };
    for app in spawn_each_with(AnalyticsSettings { detectors, ..AnalyticsSettings::default() }).await {
        gateway(&app, 1).await;
        let (a, b) = (meter(&app, 1).await, meter(&app, 2).await);
        known(&app, 1, 2).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let start = hours_ago(&app, 40);
        let litres: [u64; 14] = [4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 1500, 0, 0, 0];
        hourly(&mut gw, 1, start, &litres, 1).await;
        // Meter 2: the same readings in a shuffled order…
        for (n, i) in [13, 5, 0, 10, 7, 2, 11, 8, 1, 4, 12, 3, 9, 6].iter().enumerate() {
            hourly(&mut gw, 2, start + TimeDelta::hours(*i), &[litres[*i as usize]], 1_000 + n as u64).await;
        }
        // …and every one of its reading events delivered to the rollups again.
        let readings = eventually("meter 2's readings in the log", || async {
            let of_b: Vec<_> = app.events(topics::READINGS).await.into_iter().filter(|e| e.device_id == b).collect();
            (of_b.len() == litres.len()).then_some(of_b)
        })
        .await;
        app.publish(&readings).await;
        let total = async |m: &str| {
            let (from, to) = (iso(start), iso(start + TimeDelta::hours(20)));
            app.json(&format!("/api/rollups?meter={m}&bucket=hour&from={from}&to={to}"), 200).await["totalMl"]
                .as_i64()
                .unwrap()
        };
        eventually("both meters' rollups, each reading once", || async {
            (total(&a).await == 1_532_000 && total(&b).await == 1_532_000).then_some(())
        })
        .await;
        assert_eq!(
            derived(&app, &a, |_| true).await,
            Vec::<Value>::new(),
            "nothing is decided before the closing readings"
        );

        // The closing readings, a day after the last hour.
        for m in [1, 2] {
            hourly(&mut gw, m, start + TimeDelta::hours(38), &[0], 5_000 + u64::from(m)).await;
        }
        let first = findings(&app, &a, 2).await;
        let summary: Vec<(&str, &str, &str)> =
            first.iter().map(|f| (f.0.as_str(), f.1.as_str(), f.2.as_str())).collect();
        let at = |h| iso(start + TimeDelta::hours(h));
        assert_eq!(summary, [("continuous-flow", at(4).as_str(), "cleared"), ("burst", at(11).as_str(), "cleared")]);
        assert_eq!(findings(&app, &b, 2).await, first);
    }
}
