//! Registering devices: 201 with the id, the spec's shapes, every
//! validation message, and uniqueness on blur and again on submit.

use reqwest::Method;
use serde_json::{Value, json};
use wm_http::auth::Role;

use super::{count, gateway_body, meter_body, register, target::Target};

const GATEWAYS: &str = "/api/proxy/gateways/count";
const METERS: &str = "/api/proxy/wmeters/count";

pub async fn a_registered_gateway_reads_back_in_the_spec_shape(t: &Target) {
    let n = t.n(1);
    let before = count(t, GATEWAYS).await;
    let mut body = gateway_body(n);
    body["gpsCoordinates"] = json!([2.2944813, 48.8583701]);
    let id = register(t, "gateways", body).await;
    assert_eq!(id.len(), 24);
    let gateway = t.json(&format!("/api/proxy/gateways/{id}"), 200).await;
    let registered_at = gateway["registeredAt"].as_str().unwrap().to_owned();
    assert!(registered_at.ends_with('Z') && registered_at.len() == 27, "{registered_at}");
    assert_eq!(
        gateway,
        json!({
            "_id": id, "deviceName": format!("GTW-GW{n:08}"), "serialNumber": format!("GW{n:08}"),
            "imei": format!("{n:015}"), "phoneNumber": format!("06{n:08}"),
            "bleAddress": super::address(0xA0, n).to_uppercase(), "macAddress": super::address(0xB0, n).to_uppercase(),
            "gpsCoordinates": [2.294481, 48.85837], "lastseen": null, "registeredAt": registered_at,
            "isOnline": false, "discoveredPeripheralsCount": 0, "recordsCount": 0, "waterMetersCount": 0,
        })
    );
    let by_serial = t.json(&format!("/api/proxy/gateways/serial/gtw-gw{n:08}"), 200).await;
    assert_eq!(by_serial, gateway, "the serial with its prefix, in any case");
    assert_eq!(t.json(&format!("/api/proxy/gateways/serial/GW{n:08}"), 200).await, gateway);
    assert_eq!(count(t, GATEWAYS).await, before + 1);
}

pub async fn a_registered_meter_reads_back_in_the_spec_shape(t: &Target) {
    let n = t.n(1);
    let before = count(t, METERS).await;
    let mut body = meter_body(n);
    body["gpsCoordinates"] = json!("2.35, 48.85");
    let id = register(t, "wmeters", body).await;
    let meter = t.json(&format!("/api/proxy/wmeters/{id}"), 200).await;
    assert_eq!(meter["deviceName"], format!("W-WM{n:08}"));
    assert_eq!(meter["bleAddress"], super::address(0xC0, n).to_uppercase());
    assert_eq!(meter["gpsCoordinates"], json!([2.35, 48.85]));
    assert_eq!(meter["totalConsumption"], 0.0);
    assert_eq!(meter["criticalState"], false);
    assert_eq!(meter["deviceStatus"], "Up");
    assert_eq!(meter["lastGatewayId"], Value::Null);
    assert_eq!(meter["lastseen"], Value::Null);
    assert_eq!(t.json(&format!("/api/proxy/wmeters/serial/w-wm{n:08}"), 200).await, meter);
    assert_eq!(count(t, METERS).await, before + 1);
}

pub async fn every_gateway_field_gets_the_spec_message(t: &Target) {
    let bad = json!({
        "serialNumber": "SHORT", "imei": "12345", "phoneNumber": "06123",
        "bleAddress": "AA-BB-CC-DD-EE-FF", "macAddress": "nope", "gpsCoordinates": "north pole",
    });
    let response = t.send_as(Role::Operator, Method::POST, "/api/proxy/gateways/", Some(bad)).await;
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "validation_failed");
    assert_eq!(
        body["fields"],
        json!({
            "serialNumber": "Must be exactly 10 alphanumeric characters",
            "imei": "IMEI must be exactly 15 digits",
            "phoneNumber": "Phone Number must be exactly 10 digits",
            "bleAddress": "Must be in format XX:XX:XX:XX:XX:XX",
            "macAddress": "Must be in format XX:XX:XX:XX:XX:XX",
            "gpsCoordinates": "Invalid GPS format. Use longitude,latitude",
        })
    );
    let missing = t.send_as(Role::Operator, Method::POST, "/api/proxy/gateways/", Some(json!({}))).await;
    let body: Value = missing.json().await.unwrap();
    assert_eq!(body["fields"].as_object().unwrap().len(), 5, "every required field: {body}");
}

pub async fn every_meter_field_gets_the_spec_message(t: &Target) {
    let bad = json!({"serialNumber": "12345678901", "bleAddress": "AABBCC", "gpsCoordinates": [1.0]});
    let response = t.send_as(Role::Operator, Method::POST, "/api/proxy/wmeters/", Some(bad)).await;
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body["fields"],
        json!({
            "serialNumber": "Serial Number must be exactly 10 alphanumeric characters",
            "bleAddress": "BLE Address must be in format XX:XX:XX:XX:XX:XX",
            "gpsCoordinates": "Invalid GPS format. Use longitude,latitude",
        })
    );
}

pub async fn uniqueness_is_checked_on_blur_and_again_on_submit(t: &Target) {
    let (n, other) = (t.n(1), t.n(2));
    let field = |name: &str, value: &str| format!("/api/proxy/fieldcheck/{value}?fieldName={name}");
    assert_eq!(t.json(&field("serialNumber", &format!("GW{n:08}")), 200).await, json!({"exists": false}));
    register(t, "gateways", gateway_body(n)).await;
    let before = count(t, GATEWAYS).await;
    let bare_ble = super::address(0xA0, n).replace(':', "");
    for (name, value) in [
        ("serialNumber", format!("gw{n:08}")),
        ("imei", format!("{n:015}")),
        ("phoneNumber", format!("06{n:08}")),
        ("bleAddress", bare_ble),
        ("macAddress", super::address(0xB0, n).to_uppercase()),
    ] {
        assert_eq!(t.json(&field(name, &value), 200).await, json!({"exists": true}), "{name}");
    }
    let mut again = gateway_body(n);
    again["imei"] = json!(format!("9{:014}", n));
    let response = t.send_as(Role::Operator, Method::POST, "/api/proxy/gateways/", Some(again)).await;
    assert_eq!(response.status(), 409);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "already_in_use");
    assert_eq!(
        body["fields"],
        json!({
            "serialNumber": "Serial Number already in use",
            "phoneNumber": "Phone Number already in use",
            "bleAddress": "BLE Address already in use",
            "macAddress": "MAC Address already in use",
        })
    );
    let mut meter = meter_body(n);
    meter["serialNumber"] = json!(format!("GW{n:08}"));
    let response = t.send_as(Role::Operator, Method::POST, "/api/proxy/wmeters/", Some(meter)).await;
    assert_eq!(response.status(), 409, "serials are unique across both kinds");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["fields"], json!({"serialNumber": "Serial Number already in use"}));
    assert_eq!(count(t, GATEWAYS).await, before, "nothing was written");
    let mut imei_only = gateway_body(other);
    imei_only["imei"] = json!(format!("{n:015}"));
    let response = t.send_as(Role::Operator, Method::POST, "/api/proxy/gateways/", Some(imei_only)).await;
    assert_eq!(response.json::<Value>().await.unwrap()["fields"], json!({"imei": "IMEI already in use"}));
}

pub async fn two_concurrent_registrations_of_one_serial_give_one_201_and_one_409(t: &Target) {
    let before = count(t, METERS).await;
    for round in 0..5 {
        let mut first = meter_body(t.n(100 + round));
        let mut second = meter_body(t.n(200 + round));
        second["serialNumber"] = first["serialNumber"].clone();
        first["gpsCoordinates"] = json!([1.0, 1.0]);
        let (a, b) = tokio::join!(
            t.send_as(Role::Operator, Method::POST, "/api/proxy/wmeters/", Some(first)),
            t.send_as(Role::Operator, Method::POST, "/api/proxy/wmeters/", Some(second)),
        );
        let mut statuses = [a.status().as_u16(), b.status().as_u16()];
        statuses.sort_unstable();
        assert_eq!(statuses, [201, 409], "round {round}");
    }
    assert_eq!(count(t, METERS).await, before + 5);
}

pub async fn a_viewer_may_read_but_not_register(t: &Target) {
    let body = meter_body(t.n(1));
    let response = t.send_as(Role::Viewer, Method::POST, "/api/proxy/wmeters/", Some(body.clone())).await;
    assert_eq!(response.status(), 403);
    assert_eq!(response.json::<Value>().await.unwrap()["code"], "forbidden");
    assert_eq!(t.get_as(Role::Viewer, "/api/proxy/wmeters").await.status(), 200);
    let none = t.client.post(format!("{}/api/proxy/wmeters/", t.url)).json(&body).send().await.unwrap();
    assert_eq!(none.status(), 401);
}
