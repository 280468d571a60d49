//! Search by serial, IMEI, phone, address without colons, and radius.

use reqwest::Method;
use serde_json::{Value, json};
use wm_http::auth::Role;

use super::{address, gateway_body, ids, meter_body, register, target::Target};

async fn search(t: &Target, q: &str, radius: u32) -> Value {
    t.json(&format!("/api/proxy/search?q={}&radius={radius}", urlencode(q)), 200).await
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

pub async fn text_search_finds_names_and_identifiers(t: &Target) {
    let (n, longer) = (t.n(12), t.n(123));
    let gateway = register(t, "gateways", gateway_body(n)).await;
    let other = register(t, "gateways", gateway_body(longer)).await;
    let meter = register(t, "wmeters", meter_body(n)).await;
    let ble = address(0xA0, n);
    for (q, expected) in [
        (format!("GW{n:08}"), vec![&gateway]),
        (format!("gtw-gw{n:08}"), vec![&gateway]),
        (format!("w-wm{n:08}"), vec![&meter]),
        (format!("{longer:015}"), vec![&other]),
        (format!("06{n:08}"), vec![&gateway]),
        (ble.replace(':', ""), vec![&gateway]),
        (ble.to_uppercase(), vec![&gateway]),
        (address(0xC0, n), vec![&meter]),
        ("nothing-like-it".to_owned(), vec![]),
    ] {
        let found = search(t, &q, 0).await;
        assert_eq!(ids(&found), expected.into_iter().cloned().collect::<Vec<_>>(), "{q}");
    }
    // The longest prefix both serials share matches this test's two gateways only.
    let (a, b) = (format!("gw{n:08}"), format!("gw{longer:08}"));
    let shared: String = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).map(|(x, _)| x).collect();
    let partial = search(t, &shared, 0).await;
    assert_eq!(partial.as_array().unwrap().len(), 2, "a substring ({shared}): {partial}");
    let exact_first = search(t, &format!("GW{n:08}"), 0).await;
    assert_eq!(exact_first[0]["imei"], format!("{n:015}"), "gateways carry their imei");
    let kinds = search(t, &format!("{n:08}"), 0).await;
    let meter_result = kinds.as_array().unwrap().iter().find(|d| d["_id"] == json!(meter)).unwrap();
    assert!(meter_result.get("imei").is_none(), "a meter has no imei: {meter_result}");
    assert_eq!(search(t, "   ", 150).await, json!([]));
}

/// The search index follows the devices: an edited phone number is found
/// under the new number only, a deleted device not at all; short and
/// odd terms are answered, not refused.
pub async fn search_follows_edits_and_deletions(t: &Target) {
    let n = t.n(40);
    let gateway = register(t, "gateways", gateway_body(n)).await;
    let meter = register(t, "wmeters", meter_body(n)).await;
    let (old_phone, new_phone) = (format!("06{n:08}"), format!("07{n:08}"));
    let path = format!("/api/proxy/gateways/{gateway}");
    let edited = t.send_as(Role::Operator, Method::PATCH, &path, Some(json!({"phoneNumber": new_phone}))).await;
    assert_eq!(edited.status(), 200);
    assert_eq!(ids(&search(t, &new_phone, 0).await), std::slice::from_ref(&gateway));
    assert_eq!(ids(&search(t, &old_phone, 0).await), Vec::<String>::new(), "the old number is forgotten");

    let deleted = t.send_as(Role::Operator, Method::DELETE, &format!("/api/proxy/wmeters/{meter}"), None).await;
    assert_eq!(deleted.status(), 204);
    assert_eq!(ids(&search(t, &format!("WM{n:08}"), 0).await), Vec::<String>::new(), "a deleted meter is not found");

    for odd in ["G", "GW", "\"", "50%", "a_b", "\\", "'; DROP"] {
        assert!(search(t, odd, 0).await.is_array(), "{odd}");
    }
}

pub async fn radius_adds_the_devices_around_each_match(t: &Target) {
    // A gateway in Paris (moved 5.5 km north per block, away from other
    // tests' devices), a meter 100 m east, one 400 m east, and one in Lyon.
    let (lon, lat): (f64, f64) = (2.35, 48.85 + f64::from(t.block / 1000) * 0.05);
    let metre = 1.0 / (111_320.0 * lat.to_radians().cos());
    let gateway = register(t, "gateways", at(gateway_body(t.n(1)), lon, lat)).await;
    let near = register(t, "wmeters", at(meter_body(t.n(1)), lon + 100.0 * metre, lat)).await;
    let farther = register(t, "wmeters", at(meter_body(t.n(2)), lon + 400.0 * metre, lat)).await;
    register(t, "wmeters", at(meter_body(t.n(3)), 4.83, 45.76)).await;

    let serial = format!("GW{:08}", t.n(1));
    assert_eq!(ids(&search(t, &serial, 0).await), std::slice::from_ref(&gateway), "radius OFF");
    assert_eq!(ids(&search(t, &serial, 150).await), [gateway.clone(), near.clone()]);
    assert_eq!(ids(&search(t, &serial, 500).await), [gateway.clone(), near.clone(), farther.clone()]);
    let point = format!("{},{lat}", lon + 350.0 * metre);
    assert_eq!(ids(&search(t, &point, 100).await), std::slice::from_ref(&farther), "a point, nearest first");
    assert_eq!(ids(&search(t, &point, 400).await), [farther, near, gateway]);
}

/// A device that holds a term's pieces apart, but never the whole term,
/// is not a match: the index finds the holders of the whole term only.
pub async fn a_device_holding_a_term_s_pieces_apart_is_not_a_match(t: &Target) {
    let k = t.n(50) % 1000;
    let term = format!("Q{k:03}Q");
    let mut holds = meter_body(t.n(50));
    holds["serialNumber"] = json!(format!("X{term}XXXX"));
    let mut apart = meter_body(t.n(51));
    apart["serialNumber"] = json!(format!("Q{k:03}X{k:03}Q0"));
    let holds = register(t, "wmeters", holds).await;
    register(t, "wmeters", apart).await;
    assert_eq!(ids(&search(t, &term, 0).await), [holds], "{term}");
}

/// A whole identifier finds its device first, however many newer devices
/// hold it as a substring: the substring matches are capped at the newest
/// 100, and the serial is looked up by equality beside them.
pub async fn a_whole_serial_comes_first_among_more_than_a_page_of_substring_matches(t: &Target) {
    let serial = format!("{:010}", 7_000_000_000_u64 + u64::from(t.n(0)));
    let mut body = meter_body(t.n(60));
    body["serialNumber"] = json!(serial);
    let whole = register(t, "wmeters", body).await;
    // 101 newer meters whose BLE address holds the serial's ten digits.
    for i in 0..101_u32 {
        let mut body = meter_body(t.n(61 + i));
        let hex = format!("{serial}{i:02x}");
        let pairs: Vec<&str> = (0..6).map(|k| &hex[2 * k..2 * k + 2]).collect();
        body["bleAddress"] = json!(pairs.join(":"));
        register(t, "wmeters", body).await;
    }
    let found = ids(&search(t, &serial, 0).await);
    assert_eq!((found.len(), found.first()), (100, Some(&whole)), "a page, the whole serial's meter first");
    let prefixed = ids(&search(t, &format!("w-{serial}"), 0).await);
    assert_eq!(prefixed, [whole], "with its prefix, only its meter's name holds it");
}
