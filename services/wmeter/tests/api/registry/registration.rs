//! Registering devices: 201 with the id, the spec's shapes, every
//! validation message, and uniqueness on blur and again on submit.

use reqwest::Method;
use serde_json::{Value, json};
use wm_http::auth::Role;
use wm_proto::{Payload, topics};

use super::{gateway_body, meter_body, register};

use crate::helpers::{eventually, spawn_each};

#[tokio::test]
async fn a_registered_gateway_reads_back_in_the_spec_shape() {
    for app in spawn_each(|_| {}).await {
        let mut body = gateway_body(1);
        body["gpsCoordinates"] = json!([2.2944813, 48.8583701]);
        let id = register(&app, "gateways", body).await;
        assert_eq!(id.len(), 24);
        let gateway = app.json(&format!("/api/proxy/gateways/{id}"), 200).await;
        let registered_at = gateway["registeredAt"].as_str().unwrap().to_owned();
        assert!(registered_at.ends_with('Z') && registered_at.len() == 27, "{registered_at}");
        assert_eq!(
            gateway,
            json!({
                "_id": id, "deviceName": "GTW-GW00000001", "serialNumber": "GW00000001",
                "imei": "000000000000001", "phoneNumber": "0600000001",
                "bleAddress": "A0:00:00:00:00:01", "macAddress": "B0:00:00:00:00:01",
                "gpsCoordinates": [2.294481, 48.85837], "lastseen": null, "registeredAt": registered_at,
                "isOnline": false, "discoveredPeripheralsCount": 0, "recordsCount": 0, "waterMetersCount": 0,
            })
        );
        let by_serial = app.json("/api/proxy/gateways/serial/gtw-gw00000001", 200).await;
        assert_eq!(by_serial, gateway, "the serial with its prefix, in any case");
        assert_eq!(app.json("/api/proxy/gateways/serial/GW00000001", 200).await, gateway);
        assert_eq!(app.json("/api/proxy/gateways/count", 200).await, json!({"count": 1}));

        let events = eventually("the registration is relayed", || async {
            Some(app.events(topics::REGISTRY).await).filter(|e| !e.is_empty())
        })
        .await;
        let [event] = events.as_slice() else { panic!("{events:?}") };
        assert_eq!((event.actor.as_str(), event.device_id.as_str()), ("test-user", id.as_str()), "who and which");
        assert!(matches!(&event.payload, Some(Payload::GatewayRegistered(g)) if g.serial_number == "GW00000001"));
    }
}

#[tokio::test]
async fn a_registered_meter_reads_back_in_the_spec_shape() {
    for app in spawn_each(|_| {}).await {
        let mut body = meter_body(1);
        body["gpsCoordinates"] = json!("2.35, 48.85");
        let id = register(&app, "wmeters", body).await;
        let meter = app.json(&format!("/api/proxy/wmeters/{id}"), 200).await;
        assert_eq!(meter["deviceName"], "W-WM00000001");
        assert_eq!(meter["bleAddress"], "C0:00:00:00:00:01");
        assert_eq!(meter["gpsCoordinates"], json!([2.35, 48.85]));
        assert_eq!(meter["totalConsumption"], 0.0);
        assert_eq!(meter["criticalState"], false);
        assert_eq!(meter["deviceStatus"], "Up");
        assert_eq!(meter["lastGatewayId"], Value::Null);
        assert_eq!(meter["lastseen"], Value::Null);
        assert_eq!(app.json("/api/proxy/wmeters/serial/w-wm00000001", 200).await, meter);
        assert_eq!(app.json("/api/proxy/wmeters/count", 200).await, json!({"count": 1}));
    }
}

#[tokio::test]
async fn every_gateway_field_gets_the_spec_message() {
    let app = spawn_each(|_| {}).await.remove(0);
    let bad = json!({
        "serialNumber": "SHORT", "imei": "12345", "phoneNumber": "06123",
        "bleAddress": "AA-BB-CC-DD-EE-FF", "macAddress": "nope", "gpsCoordinates": "north pole",
    });
    let response = app.send_as(Role::Operator, Method::POST, "/api/proxy/gateways/", Some(bad)).await;
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
    let missing = app.send_as(Role::Operator, Method::POST, "/api/proxy/gateways/", Some(json!({}))).await;
    let body: Value = missing.json().await.unwrap();
    assert_eq!(body["fields"].as_object().unwrap().len(), 5, "every required field: {body}");
}

#[tokio::test]
async fn every_meter_field_gets_the_spec_message() {
    let app = spawn_each(|_| {}).await.remove(0);
    let bad = json!({"serialNumber": "12345678901", "bleAddress": "AABBCC", "gpsCoordinates": [1.0]});
    let response = app.send_as(Role::Operator, Method::POST, "/api/proxy/wmeters/", Some(bad)).await;
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

#[tokio::test]
async fn uniqueness_is_checked_on_blur_and_again_on_submit() {
    for app in spawn_each(|_| {}).await {
        let field = |name: &str, value: &str| format!("/api/proxy/fieldcheck/{value}?fieldName={name}");
        assert_eq!(app.json(&field("serialNumber", "GW00000001"), 200).await, json!({"exists": false}));
        register(&app, "gateways", gateway_body(1)).await;
        for (name, value) in [
            ("serialNumber", "gw00000001"),
            ("imei", "000000000000001"),
            ("phoneNumber", "0600000001"),
            ("bleAddress", "a00000000001"),
            ("macAddress", "B0:00:00:00:00:01"),
        ] {
            assert_eq!(app.json(&field(name, value), 200).await, json!({"exists": true}), "{name}");
        }
        let mut again = gateway_body(1);
        again["imei"] = json!("999999999999999");
        let response = app.send_as(Role::Operator, Method::POST, "/api/proxy/gateways/", Some(again)).await;
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
        let mut meter = meter_body(1);
        meter["serialNumber"] = json!("GW00000001");
        let response = app.send_as(Role::Operator, Method::POST, "/api/proxy/wmeters/", Some(meter)).await;
        assert_eq!(response.status(), 409, "serials are unique across both kinds");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["fields"], json!({"serialNumber": "Serial Number already in use"}));
        assert_eq!(app.json("/api/proxy/gateways/count", 200).await, json!({"count": 1}));
        let mut imei_only = gateway_body(2);
        imei_only["imei"] = json!("000000000000001");
        let response = app.send_as(Role::Operator, Method::POST, "/api/proxy/gateways/", Some(imei_only)).await;
        assert_eq!(response.json::<Value>().await.unwrap()["fields"], json!({"imei": "IMEI already in use"}));
    }
}

#[tokio::test]
async fn two_concurrent_registrations_of_one_serial_give_one_201_and_one_409() {
    for app in spawn_each(|_| {}).await {
        for round in 0..5 {
            let mut first = meter_body(100 + round);
            let mut second = meter_body(200 + round);
            second["serialNumber"] = first["serialNumber"].clone();
            first["gpsCoordinates"] = json!([1.0, 1.0]);
            let (a, b) = tokio::join!(
                app.send_as(Role::Operator, Method::POST, "/api/proxy/wmeters/", Some(first)),
                app.send_as(Role::Operator, Method::POST, "/api/proxy/wmeters/", Some(second)),
            );
            let mut statuses = [a.status().as_u16(), b.status().as_u16()];
            statuses.sort_unstable();
            assert_eq!(statuses, [201, 409], "round {round}");
        }
        assert_eq!(app.json("/api/proxy/wmeters/count", 200).await, json!({"count": 5}));
    }
}

#[tokio::test]
async fn a_viewer_may_read_but_not_register() {
    for app in spawn_each(|_| {}).await {
        let response = app.send_as(Role::Viewer, Method::POST, "/api/proxy/wmeters/", Some(meter_body(1))).await;
        assert_eq!(response.status(), 403);
        assert_eq!(response.json::<Value>().await.unwrap()["code"], "forbidden");
        assert_eq!(app.get_as(Role::Viewer, "/api/proxy/wmeters").await.status(), 200);
        let none =
            app.client.post(format!("{}/api/proxy/wmeters/", app.url)).json(&meter_body(1)).send().await.unwrap();
        assert_eq!(none.status(), 401);
    }
}
