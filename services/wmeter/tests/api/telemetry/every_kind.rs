//! One message of every kind, reflected in the right endpoint and in the
//! device's state; the last will takes the gateway offline.

use chrono::Duration;
use reqwest::Method;
use serde_json::{Value, json};
use wm_domain::Clock;
use wm_http::auth::Role;

use super::{Gateway, json_when, known};
use crate::{
    helpers::spawn_each,
    suite::{gateway_body, meter_body, register},
};

#[tokio::test]
async fn every_kind_reaches_its_endpoint_and_the_device_state() {
    for app in spawn_each(|_| {}).await {
        let gateway = register(&app, "gateways", gateway_body(1)).await;
        let meter = register(&app, "wmeters", meter_body(1)).await;
        known(&app, 1, 1).await;
        let now = app.clock.now().to_rfc3339();
        let ble = "C0:00:00:00:00:01";
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let messages = [
            ("status", json!({"status": "online", "messageId": 1, "timestamp": now})),
            ("heartbeat", json!({"messageId": 2, "timestamp": now})),
            ("reading", json!({"messageId": 3, "timestamp": now, "meter": ble, "record": 42, "unit": "L"})),
            ("ble", json!({"messageId": 4, "timestamp": now, "meter": ble, "rssi": -73})),
            ("alert", json!({"messageId": 5, "timestamp": now, "meter": ble, "type": "leak", "state": "raised"})),
            (
                "discovery",
                json!({"messageId": 6, "timestamp": now, "name": "stranger", "bleAddress": "DD:00:00:00:00:01"}),
            ),
            (
                "shutdown-request",
                json!({"messageId": 7, "timestamp": now, "meter": "W-WM00000001", "requestId": "r-1"}),
            ),
            ("ack", json!({"messageId": 8, "timestamp": now, "commandId": "c-1", "ok": true})),
        ];
        for (kind, payload) in &messages {
            gw.send(kind, payload.to_string()).await;
        }
        gw.acked(messages.len()).await;

        let activity = json_when(&app, &format!("/api/proxy/gateways/gateway-activity/{gateway}?max=50"), |a| {
            a.as_array().is_some_and(|a| a.len() == 8)
        })
        .await;
        let newest = &activity[0];
        assert_eq!(newest["gatewayId"], json!(gateway));
        assert!(newest["mqttTopic"].as_str().unwrap().starts_with("wmeter/v1/gw/GW00000001/"), "{newest}");
        let actions: Vec<&str> = activity.as_array().unwrap().iter().map(|a| a["action"].as_str().unwrap()).collect();
        for action in [
            "status online",
            "heartbeat",
            "reading 42 L",
            "ble -73 dBm",
            "alert leak raised",
            "shutdown requested",
            "command acked",
        ] {
            assert!(actions.contains(&action), "{action} in {actions:?}");
        }
        let network = app.json("/api/proxy/gateways/gateway-activity?max=50", 200).await;
        assert_eq!(network.as_array().unwrap().len(), 8);
        let about_meter =
            app.json(&format!("/api/proxy/wmeters/gateway-activity/{meter}?gatewayId={gateway}"), 200).await;
        assert_eq!(about_meter.as_array().unwrap().len(), 4, "reading, ble, alert, shutdown request: {about_meter}");
        let heard = app.json(&format!("/api/proxy/gateways/ble-activity/{gateway}"), 200).await;
        assert_eq!((&heard[0]["meterId"], &heard[0]["rssi"]), (&json!(meter), &json!(-73)));
        assert_eq!(app.json(&format!("/api/proxy/wmeters/ble-activity/{meter}"), 200).await, heard);
        let found = app.json(&format!("/api/proxy/gateways/peripheral-discovery/{gateway}"), 200).await;
        assert_eq!(
            (&found[0]["deviceName"], &found[0]["bleAddress"]),
            (&json!("stranger"), &json!("DD:00:00:00:00:01"))
        );
        let records = app.json(&format!("/api/proxy/wmeters/consumption/{meter}"), 200).await;
        assert_eq!(records[0]["record"], json!(42.0));
        let alerts = app.json(&format!("/api/proxy/wmeters/critical/{meter}?onlyRaised=true"), 200).await;
        assert_eq!((&alerts[0]["type"], &alerts[0]["status"]), (&json!("leak"), &json!("raised")));
        let shutdown = app.json(&format!("/api/proxy/wmeters/shutdown-requests/{meter}"), 200).await;
        assert_eq!(shutdown, json!({"status": "requested"}));

        // The device state comes from several topics, each in its own time.
        let meter_path = format!("/api/proxy/wmeters/{meter}");
        json_when(&app, &meter_path, |m| {
            m["criticalState"] == true
                && m["totalConsumption"] == json!(42.0)
                && m["lastGatewayId"] == json!(gateway)
                && m["lastseen"].is_string()
        })
        .await;
        let gateway_path = format!("/api/proxy/gateways/{gateway}");
        json_when(&app, &gateway_path, |g| {
            g["discoveredPeripheralsCount"] == 1 && g["recordsCount"] == 1 && g["isOnline"] == true
        })
        .await;

        // Past the online window only the session keeps it online, until the last will.
        app.clock.advance(Duration::minutes(11));
        json_when(&app, &gateway_path, |g| g["isOnline"] == true).await;
        gw.crash();
        json_when(&app, &gateway_path, |g| g["isOnline"] == false).await;

        // The operator answers the shutdown request once.
        let path = format!("/api/proxy/wmeters/shutdown-requests/{meter}");
        let viewer = app.send_as(Role::Viewer, Method::PATCH, &path, Some(json!({"status": "confirmed"}))).await;
        assert_eq!(viewer.status(), 403);
        let confirmed = app.send_as(Role::Operator, Method::PATCH, &path, Some(json!({"status": "confirmed"}))).await;
        assert_eq!(confirmed.status(), 200);
        assert_eq!(app.json(&path, 200).await, json!({"status": "confirmed"}));
        let again = app.send_as(Role::Operator, Method::PATCH, &path, Some(json!({"status": "rejected"}))).await;
        assert_eq!(again.status(), 409);
        assert_eq!(again.json::<Value>().await.unwrap()["code"], "not_pending");
        json_when(&app, &meter_path, |m| m["deviceStatus"] == "Down").await;
    }
}
