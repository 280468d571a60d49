//! Devices in bulk as CSV (docs/devices-csv.md): a dry run reports every
//! row's problems with the form's own messages, applying registers the
//! valid rows once, and an export imports again as it is.

use reqwest::{Method, Response};
use serde_json::{Value, json};
use wm_domain::{
    ADDRESS_MESSAGE, GPS_MESSAGE, IMEI_MESSAGE, METER_BLE_ADDRESS_MESSAGE, METER_SERIAL_NUMBER_MESSAGE,
    PHONE_NUMBER_MESSAGE, SERIAL_NUMBER_MESSAGE,
};
use wm_http::auth::Role;

use super::{address, target::Target};

const GATEWAYS: &str = "serialNumber,imei,phoneNumber,bleAddress,macAddress,latitude,longitude\r\n";
const METERS: &str = "serialNumber,bleAddress,latitude,longitude\r\n";

async fn import(t: &Target, role: Role, kind: &str, apply: bool, csv: impl Into<reqwest::Body>) -> Response {
    t.client
        .post(format!("{}/api/devices/import/{kind}{}", t.url, if apply { "?apply=true" } else { "" }))
        .bearer_auth(t.token(role))
        .header("content-type", "text/csv")
        .body(csv)
        .send()
        .await
        .unwrap()
}

async fn report(t: &Target, kind: &str, apply: bool, csv: String) -> Value {
    let response = import(t, Role::Operator, kind, apply, csv).await;
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, 200, "{body}");
    body
}

fn gateway_row(n: u32) -> String {
    format!("gw{n:08},{n:015},06{n:08},{},{},48.858370,2.294481\r\n", address(0xA0, n), address(0xB0, n))
}

fn messages(report: &Value) -> Vec<(u64, String, String)> {
    report["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["row"].as_u64().unwrap(),
                e["field"].as_str().unwrap().to_owned(),
                e["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

pub async fn a_dry_run_reports_every_row_s_problems_with_the_form_s_messages(t: &Target) {
    let file = format!(
        "{GATEWAYS}{}{}bad,1234,0612,zz,yy,,\r\n{},=cmd|' /C calc'!A0,0612345678,{},{},,\r\n{}",
        gateway_row(t.n(1)),
        gateway_row(t.n(2)),
        format_args!("gw{:08}", t.n(3)),
        address(0xA0, t.n(3)),
        address(0xB0, t.n(3)),
        gateway_row(t.n(1)).replace("48.858370", "95"),
    );
    let dry = report(t, "gateways", false, file).await;
    assert_eq!((dry["rows"].as_u64(), dry["valid"].as_u64(), dry["registered"].as_u64()), (Some(5), Some(2), Some(0)));
    let found = messages(&dry);
    for expected in [
        (3, "serialNumber", SERIAL_NUMBER_MESSAGE),
        (3, "imei", IMEI_MESSAGE),
        (3, "phoneNumber", PHONE_NUMBER_MESSAGE),
        (3, "bleAddress", ADDRESS_MESSAGE),
        (3, "macAddress", ADDRESS_MESSAGE),
        (4, "imei", wm_device_registry::import::FORMULA_MESSAGE),
        (5, "latitude", GPS_MESSAGE),
    ] {
        assert!(
            found.contains(&(expected.0, expected.1.to_owned(), expected.2.to_owned())),
            "{expected:?} in {found:?}"
        );
    }
    let meters = format!("{METERS}short,nope,,\r\n");
    let found = messages(&report(t, "meters", false, meters).await);
    assert!(found.contains(&(1, "serialNumber".to_owned(), METER_SERIAL_NUMBER_MESSAGE.to_owned())), "{found:?}");
    assert!(found.contains(&(1, "bleAddress".to_owned(), METER_BLE_ADDRESS_MESSAGE.to_owned())), "{found:?}");
}

pub async fn applying_registers_the_valid_rows_once_and_an_export_imports_again(t: &Target) {
    let (a, b, c) = (t.n(11), t.n(12), t.n(13));
    let registered = super::gateway_body(c);
    let created = t.send_as(Role::Operator, Method::POST, "/api/proxy/gateways/", Some(registered)).await;
    assert_eq!(created.status(), 201);
    // Row 3 repeats row 1; row 4 takes the IMEI of a registered gateway.
    let clash = gateway_row(c + 100).replace(&format!("{:015}", c + 100), &format!("{c:015}"));
    let file = format!("{GATEWAYS}{}{}{}{clash}", gateway_row(a), gateway_row(b), gateway_row(a));
    let applied = report(t, "gateways", true, file.clone()).await;
    assert_eq!((applied["registered"].as_u64(), applied["applied"].as_bool()), (Some(2), Some(true)));
    let found = messages(&applied);
    assert!(
        found.contains(&(
            3,
            "serialNumber".to_owned(),
            "Serial Number already in use (also in row 1 of this file)".to_owned()
        )),
        "{found:?}"
    );
    assert!(found.contains(&(4, "imei".to_owned(), "IMEI already in use".to_owned())), "{found:?}");
    let again = report(t, "gateways", true, file).await;
    assert_eq!((again["registered"].as_u64(), again["unchanged"].as_u64()), (Some(0), Some(2)), "idempotent: {again}");

    let detail = t.send_as(Role::Viewer, Method::GET, &format!("/api/proxy/gateways/serial/gw{a:08}"), None).await;
    assert_eq!(detail.status(), 200, "the imported gateway is registered");
    let id = detail.json::<Value>().await.unwrap()["_id"].as_str().unwrap().to_owned();
    let trail = super::audit::entries_about(t, &id, 1).await;
    assert_eq!(
        (&trail[0]["action"], &trail[0]["outcome"], &trail[0]["before"], &trail[0]["after"]["serialNumber"]),
        (&json!("devices.import"), &json!("ok"), &Value::Null, &json!(format!("GW{a:08}"))),
        "each imported device is audited as registered: {trail:?}"
    );
    let export = t.send_as(Role::Viewer, Method::GET, "/api/devices/export/gateways", None).await;
    assert_eq!(export.status(), 200);
    assert!(export.headers()["content-disposition"].to_str().unwrap().contains("gateways-"));
    let exported = export.text().await.unwrap();
    assert!(exported.starts_with(GATEWAYS), "{exported}");
    for n in [a, b, c] {
        assert!(exported.contains(&format!("GW{n:08},{n:015},06{n:08},")), "gateway {n} in the export");
    }
    let round_trip = report(t, "gateways", false, exported).await;
    assert_eq!(round_trip["errors"], serde_json::json!([]), "an export imports again: {round_trip}");
    assert!(round_trip["unchanged"].as_u64() >= Some(3), "{round_trip}");
}

pub async fn malformed_files_get_a_clear_error(t: &Target) {
    for (csv, message) in [
        (
            "serial,ble\r\nx,y\r\n".as_bytes().to_vec(),
            "The first line must be the header serialNumber,bleAddress,latitude,longitude; it is serial,ble",
        ),
        (METERS.as_bytes().to_vec(), "The file has no row after its header"),
        (
            [METERS.as_bytes(), b"caf\xe9,AA:BB:CC:DD:EE:FF,,\r\n"].concat(),
            "The file is not UTF-8 text (line 2); save it as CSV UTF-8",
        ),
    ] {
        let response = import(t, Role::Operator, "meters", false, csv).await;
        assert_eq!(response.status(), 400);
        let error: Value = response.json().await.unwrap();
        assert_eq!((error["code"].as_str(), error["message"].as_str()), (Some("invalid_csv"), Some(message)));
    }
    let huge = vec![b'a'; 11 * 1024 * 1024];
    let response = import(t, Role::Operator, "meters", false, huge).await;
    assert_eq!(response.status(), 413);
    assert_eq!(response.json::<Value>().await.unwrap()["code"], "payload_too_large");
    let viewer = import(t, Role::Viewer, "meters", false, METERS.to_owned()).await;
    assert_eq!(viewer.status(), 403);
    let unknown = import(t, Role::Operator, "valves", false, METERS.to_owned()).await;
    assert_eq!(unknown.status(), 400);
}
