//! Search by serial, IMEI, phone, address without colons, and radius.

use serde_json::{Value, json};

use super::{gateway_body, ids, meter_body, register};
use crate::helpers::{TestApp, spawn_each};

async fn search(app: &TestApp, q: &str, radius: u32) -> Value {
    app.json(&format!("/api/proxy/search?q={}&radius={radius}", urlencode(q)), 200).await
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") }
        })
        .collect()
}

fn at(mut body: Value, lon: f64, lat: f64) -> Value {
    body["gpsCoordinates"] = json!([lon, lat]);
    body
}

#[tokio::test]
async fn text_search_finds_names_and_identifiers() {
    for app in spawn_each(|_| {}).await {
        let gateway = register(&app, "gateways", gateway_body(12)).await;
        let other = register(&app, "gateways", gateway_body(123)).await;
        let meter = register(&app, "wmeters", meter_body(12)).await;
        for (q, expected) in [
            ("GW00000012", vec![&gateway]),
            ("gtw-gw00000012", vec![&gateway]),
            ("w-wm00000012", vec![&meter]),
            ("000000000000123", vec![&other]),
            ("0600000012", vec![&gateway]),
            ("a0000000000c", vec![&gateway]),
            ("A0:00:00:00:00:0C", vec![&gateway]),
            ("c0:00:00:00:00:0c", vec![&meter]),
            ("nothing-like-it", vec![]),
        ] {
            let found = search(&app, q, 0).await;
            assert_eq!(ids(&found), expected.into_iter().cloned().collect::<Vec<_>>(), "{q}");
        }
        let partial = search(&app, "gw00000", 0).await;
        assert_eq!(partial.as_array().unwrap().len(), 2, "a substring: {partial}");
        let exact_first = search(&app, "GW00000012", 0).await;
        assert_eq!(exact_first[0]["imei"], "000000000000012", "gateways carry their imei");
        let kinds = search(&app, "00000012", 0).await;
        let meter_result = kinds.as_array().unwrap().iter().find(|d| d["_id"] == json!(meter)).unwrap();
        assert!(meter_result.get("imei").is_none(), "a meter has no imei: {meter_result}");
        assert_eq!(search(&app, "   ", 150).await, json!([]));
    }
}

#[tokio::test]
async fn radius_adds_the_devices_around_each_match() {
    for app in spawn_each(|_| {}).await {
        // A gateway in Paris, a meter 100 m east, one 400 m east, and one in Lyon.
        let (lon, lat): (f64, f64) = (2.35, 48.85);
        let metre = 1.0 / (111_320.0 * lat.to_radians().cos());
        let gateway = register(&app, "gateways", at(gateway_body(1), lon, lat)).await;
        let near = register(&app, "wmeters", at(meter_body(1), lon + 100.0 * metre, lat)).await;
        let farther = register(&app, "wmeters", at(meter_body(2), lon + 400.0 * metre, lat)).await;
        register(&app, "wmeters", at(meter_body(3), 4.83, 45.76)).await;

        assert_eq!(ids(&search(&app, "GW00000001", 0).await), std::slice::from_ref(&gateway), "radius OFF");
        assert_eq!(ids(&search(&app, "GW00000001", 150).await), [gateway.clone(), near.clone()]);
        assert_eq!(ids(&search(&app, "GW00000001", 500).await), [gateway.clone(), near.clone(), farther.clone()]);
        let point = format!("{},{lat}", lon + 350.0 * metre);
        assert_eq!(ids(&search(&app, &point, 100).await), std::slice::from_ref(&farther), "a point, nearest first");
        assert_eq!(ids(&search(&app, &point, 400).await), [farther, near, gateway]);
    }
}
