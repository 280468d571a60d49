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
