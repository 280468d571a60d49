//! Registration bodies and reads shared by the HTTP suite and the services'
//! own API tests. Every identifier derives from one number, so a test's devices
//! never collide with another test's on a shared deployment.

use reqwest::Method;
use serde_json::{Value, json};
use wm_domain::DeviceId;
use wm_http::auth::Role;
use wm_proto::{
    Envelope, Payload,
    v1::{GatewayRegistered, MeterRegistered},
};

use crate::{eventually, target::Target};

/// A valid gateway registration whose identifiers all derive from `n`.
pub fn gateway_body(n: u32) -> Value {
    json!({
        "serialNumber": format!("gw{n:08}"),
        "imei": format!("{n:015}"),
        "phoneNumber": format!("06{n:08}"),
        "bleAddress": address(0xA0, n),
        "macAddress": address(0xB0, n),
    })
}

/// A valid meter registration whose identifiers derive from `n`.
pub fn meter_body(n: u32) -> Value {
    json!({"serialNumber": format!("wm{n:08}"), "bleAddress": address(0xC0, n)})
}

/// `PP:00:NN:NN:NN:NN`, lower case (the server upper-cases it).
pub fn address(prefix: u8, n: u32) -> String {
    let b = n.to_be_bytes();
    format!("{prefix:02x}:00:{:02x}:{:02x}:{:02x}:{:02x}", b[0], b[1], b[2], b[3])
}

/// Registers through the API as an operator and returns the new id.
pub async fn register(t: &Target, kind: &str, body: Value) -> String {
    let response = t.send_as(Role::Operator, Method::POST, &format!("/api/proxy/{kind}/"), Some(body)).await;
    assert_eq!(response.status(), 201, "register {kind}");
    let created: Value = response.json().await.unwrap();
    created["_id"].as_str().unwrap().to_owned()
}

/// The `_id`s of a list response, in order.
pub fn ids(list: &Value) -> Vec<String> {
    list.as_array().unwrap().iter().map(|d| d["_id"].as_str().unwrap().to_owned()).collect()
}

/// What `path` answers as `{"count": n}` now.
pub async fn count(t: &Target, path: &str) -> i64 {
    t.json(path, 200).await["count"].as_i64().unwrap()
}

/// Waits until `path` answers `{"count": expected}`.
pub async fn count_becomes(t: &Target, path: &str, expected: i64) {
    eventually(path, || async { (count(t, path).await == expected).then_some(()) }).await;
}

/// The registration of gateway [`gateway_body`]`(n)` as the registry
/// publishes it, for a service that learns devices from the log: the new
/// id and the event.
pub fn gateway_registered(n: u32) -> (String, Envelope) {
    let id = DeviceId::new().to_string();
    let serial_number = format!("GW{n:08}");
    let registered = GatewayRegistered {
        id: id.clone(),
        device_name: format!("GTW-{serial_number}"),
        serial_number,
        ble_address: address(0xA0, n).to_uppercase(),
        mac_address: address(0xB0, n).to_uppercase(),
        ..GatewayRegistered::default()
    };
    (id.clone(), Envelope::new(id, "test-user", Payload::GatewayRegistered(registered)))
}

/// The registration of meter [`meter_body`]`(n)`, heard at
/// [`address`]`(0xC0, n)`, as the registry publishes it.
pub fn meter_registered(n: u32) -> (String, Envelope) {
    let id = DeviceId::new().to_string();
    let serial_number = format!("WM{n:08}");
    let registered = MeterRegistered {
        id: id.clone(),
        device_name: format!("W-{serial_number}"),
        serial_number,
        ble_address: address(0xC0, n).to_uppercase(),
        ..MeterRegistered::default()
    };
    (id.clone(), Envelope::new(id, "test-user", Payload::MeterRegistered(registered)))
}
