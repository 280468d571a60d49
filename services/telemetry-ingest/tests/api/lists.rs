//! The telemetry lists through ingest's API: newest first, `max` and an
//! exclusive `start` page through a meter's readings, the other device
//! filters a list, rows name their devices, and malformed parameters get
//! the 400 that names them.

use chrono::{Duration, SecondsFormat};
use serde_json::{Value, json};
use wm_domain::Clock;

use crate::helpers::{Gateway, TestApp, address, gateway, json_when, known, meter, spawn_each};

/// The `record`s of a consumption page.
fn records(page: &Value) -> Vec<f64> {
    page.as_array().unwrap().iter().map(|r| r["record"].as_f64().unwrap()).collect()
}

async fn status(app: &TestApp, path: &str) -> (u16, Value) {
    let response = app.get_as(wm_http::auth::Role::Viewer, path).await;
    (response.status().as_u16(), response.json().await.unwrap())
}

#[tokio::test]
async fn readings_page_newest_first_and_lists_filter_by_the_other_device() {
    for app in spawn_each().await {
        let gw_id = gateway(&app, 1).await;
        let meters = [meter(&app, 1).await, meter(&app, 2).await];
        known(&app, 1, 2).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let start = app.clock.now() - Duration::hours(1);
        let at = |minute: i64| (start + Duration::minutes(minute)).to_rfc3339_opts(SecondsFormat::Micros, true);
        for litres in 1..=5_i64 {
            let reading = json!({"messageId": litres, "timestamp": at(litres), "meter": address(0xC0, 1),
                                 "record": litres, "unit": "L"});
            gw.send("reading", reading.to_string()).await;
        }
        let other = json!({"messageId": 6, "timestamp": at(6), "meter": address(0xC0, 2), "record": 250, "unit": "mL"});
        gw.send("reading", other.to_string()).await;
        gw.acked(6).await;

        let consumption = format!("/api/proxy/wmeters/consumption/{}", meters[0]);
        let newest = json_when(&app, &format!("{consumption}?max=2"), |p| p.as_array().unwrap().len() == 2).await;
        assert_eq!(records(&newest), [5.0, 4.0]);
        let oldest_shown = newest[1]["timestamp"].as_str().unwrap();
        let next = app.json(&format!("{consumption}?max=2&start={oldest_shown}"), 200).await;
        assert_eq!(records(&next), [3.0, 2.0], "start is exclusive: nothing repeats");
        let other = app.json(&format!("/api/proxy/wmeters/consumption/{}", meters[1]), 200).await;
        assert_eq!(records(&other), [0.25], "millilitres become litres");

        let activity = format!("/api/proxy/gateways/gateway-activity/{gw_id}");
        let all = app.json(&activity, 200).await;
        let actions: Vec<&str> = all.as_array().unwrap().iter().map(|a| a["action"].as_str().unwrap()).collect();
        let newest_first =
            ["reading 250 mL", "reading 5 L", "reading 4 L", "reading 3 L", "reading 2 L", "reading 1 L"];
        assert_eq!(actions, newest_first, "newest first");
        let of_second = app.json(&format!("{activity}?meterId={}", meters[1]), 200).await;
        let actions: Vec<&str> = of_second.as_array().unwrap().iter().map(|a| a["action"].as_str().unwrap()).collect();
        assert_eq!(actions, ["reading 250 mL"]);
        let named = (&of_second[0]["gatewayName"], &of_second[0]["meterName"]);
        assert_eq!(named, (&json!("GTW-GW00000001"), &json!("W-WM00000002")), "rows name their devices");
        let through =
            app.json(&format!("/api/proxy/wmeters/gateway-activity/{}?gatewayId={gw_id}", meters[1]), 200).await;
        assert_eq!(through, of_second, "the same rows, seen from the meter");

        for (path, message) in [
            (format!("{consumption}?max=0"), "max must be a whole number from 1 to 500, not \"0\""),
            (format!("{consumption}?start=yesterday"), "start must be an ISO 8601 date"),
            (
                format!("/api/proxy/gateways/peripheral-discovery/{gw_id}?meterId={}", meters[0]),
                "meterId does not apply",
            ),
            (format!("/api/proxy/wmeters/critical/{}?onlyRaised=maybe", meters[0]), "onlyRaised must be true or false"),
            ("/api/proxy/wmeters/consumption/not-an-id".to_owned(), "not-an-id"),
        ] {
            let (code, body) = status(&app, &path).await;
            assert_eq!((code, body["code"].as_str()), (400, Some("validation_failed")), "{path}");
            assert!(body["message"].as_str().unwrap().contains(message), "{path}: {body}");
        }
    }
}

/// A meter's activity is its readings' activity rows, which ingest finds
/// through the readings, and its other rows, through their index by meter
/// (telemetry migration 13): newest first across both, paged by `start`.
/// A reading whose activity row was written apart from it, as a rebuild
/// writes an uplink's two events, is there once, and is the newest.
#[tokio::test]
async fn a_meter_s_activity_is_its_readings_and_its_other_activity_newest_first() {
    use wm_proto::{
        Envelope, Payload,
        v1::{GatewayActivity, ReadingReceived, VolumeUnit},
    };
    use wm_telemetry_ingest::storage::telemetry;

    for app in spawn_each().await {
        let gw_id = gateway(&app, 1).await;
        let meter_id = meter(&app, 1).await;
        known(&app, 1, 1).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let start = app.clock.now() - Duration::hours(1);
        let at = |minute: i64| (start + Duration::minutes(minute)).to_rfc3339_opts(SecondsFormat::Micros, true);
        let heard = address(0xC0, 1);
        let uplinks = [
            ("reading", json!({"messageId": 1, "timestamp": at(1), "meter": heard, "record": 1, "unit": "L"})),
            ("ble", json!({"messageId": 2, "timestamp": at(2), "meter": heard, "rssi": -70})),
            ("reading", json!({"messageId": 3, "timestamp": at(3), "meter": heard, "record": 2, "unit": "L"})),
            ("alert", json!({"messageId": 4, "timestamp": at(4), "meter": heard, "type": "leak", "state": "raised"})),
            ("reading", json!({"messageId": 5, "timestamp": at(5), "meter": heard, "record": 3, "unit": "L"})),
        ];
        for (kind, body) in uplinks {
            gw.send(kind, body.to_string()).await;
        }
        gw.acked(5).await;
        // One uplink's two events, each in a transaction of its own.
        let apart = start + Duration::minutes(6);
        let activity = GatewayActivity {
            gateway_id: gw_id.clone(),
            meter_id: Some(meter_id.clone()),
            mqtt_topic: "wmeter/v1/gw/GW00000001/reading".to_owned(),
            action: "reading 4 L".to_owned(),
            message_id: 6,
        };
        let reading = ReadingReceived {
            meter_id: meter_id.clone(),
            gateway_id: gw_id.clone(),
            record: 4,
            unit: VolumeUnit::Litre.into(),
            message_id: 6,
        };
        for event in [
            Envelope::new(&gw_id, "test", Payload::GatewayActivity(activity)).with_occurred_at(apart),
            Envelope::new(&meter_id, "test", Payload::ReadingReceived(reading)).with_occurred_at(apart),
        ] {
            let mut tx = app.db().begin_write().await.unwrap();
            telemetry::persist_all(&mut tx, &[event]).await.unwrap();
            tx.commit().await.unwrap();
        }

        let actions = |page: &Value| -> Vec<String> {
            page.as_array().unwrap().iter().map(|a| a["action"].as_str().unwrap().to_owned()).collect()
        };
        let of_meter = format!("/api/proxy/wmeters/gateway-activity/{meter_id}");
        let all = json_when(&app, &of_meter, |p| p.as_array().unwrap().len() == 6).await;
        let newest_first =
            ["reading 4 L", "reading 3 L", "alert leak raised", "reading 2 L", "ble -70 dBm", "reading 1 L"];
        assert_eq!(actions(&all), newest_first);
        assert!(all.as_array().unwrap().iter().all(|a| a["meterId"] == meter_id.as_str() && a["gatewayId"] == gw_id));
        assert_eq!(all[1]["meterName"], "W-WM00000001", "rows name their devices");

        let first = app.json(&format!("{of_meter}?max=3"), 200).await;
        assert_eq!(actions(&first), newest_first[..3]);
        let oldest_shown = first[2]["timestamp"].as_str().unwrap();
        let next = app.json(&format!("{of_meter}?max=3&start={oldest_shown}"), 200).await;
        assert_eq!(actions(&next), newest_first[3..], "start is exclusive: nothing repeats");
        let through = app.json(&format!("{of_meter}?gatewayId={gw_id}"), 200).await;
        assert_eq!(through, all, "the same rows through their one gateway");
        let other_gateway = app.json(&format!("{of_meter}?gatewayId={}", gateway(&app, 2).await), 200).await;
        assert_eq!(other_gateway, json!([]), "no rows through another gateway");
        let everyone = app.json(&format!("/api/proxy/gateways/gateway-activity?meterId={meter_id}"), 200).await;
        assert_eq!(everyone, all, "the same rows from the list of all activity");
    }
}
