//! The valve chain: a confirmed shutdown sends a close command to the
//! gateway that heard the meter, the gateway acks it, and the meter shows
//! it acked. A rejection sends nothing, and a rebuild sends nothing again.

use reqwest::Method;
use serde_json::{Value, json};
use wm_domain::Clock;
use wm_eventlog::projection::{self, RunOptions};
use wm_http::auth::Role;

use super::{Gateway, json_when, known};
use crate::{
    helpers::{TestApp, spawn_each},
    registry::{address, gateway_body, meter_body, register},
};

async fn answer(app: &TestApp, meter: &str, status: &str) {
    let path = format!("/api/proxy/wmeters/shutdown-requests/{meter}");
    let response = app.send_as(Role::Operator, Method::PATCH, &path, Some(json!({"status": status}))).await;
    assert_eq!(response.status(), 200, "{status} {meter}");
}

#[tokio::test]
async fn a_confirmed_shutdown_closes_the_valve_once() {
    for app in spawn_each(|_| {}).await {
        register(&app, "gateways", gateway_body(1)).await;
        let meters = [
            register(&app, "wmeters", meter_body(1)).await,
            register(&app, "wmeters", meter_body(2)).await,
            register(&app, "wmeters", meter_body(3)).await,
            register(&app, "wmeters", meter_body(4)).await,
        ];
        known(&app, 1, 4).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let now = app.clock.now().to_rfc3339();
        for n in 1..=4_u32 {
            let ble = address(0xC0, n);
            gw.send("ble", json!({"messageId": n, "timestamp": now, "meter": ble, "rssi": -60}).to_string()).await;
            let request = json!({"messageId": 10 + n, "timestamp": now, "meter": ble, "requestId": format!("r-{n}")});
            gw.send("shutdown-request", request.to_string()).await;
        }
        gw.acked(8).await;
        for meter in &meters {
            json_when(&app, &format!("/api/proxy/wmeters/shutdown-requests/{meter}"), |s| s["status"] == "requested")
                .await;
        }

        answer(&app, &meters[0], "confirmed").await;
        let command = gw.command().await;
        assert_eq!(
            (&command["action"], &command["meter"], &command["requestId"]),
            (&json!("close"), &json!("C0:00:00:00:00:01"), &json!("r-1"))
        );
        let command_id = command["commandId"].as_str().unwrap().to_owned();
        let meter_path = format!("/api/proxy/wmeters/{}", meters[0]);
        // The command's state and the meter's status come on separate topics.
        let sent =
            json_when(&app, &meter_path, |m| m["valveCommand"]["status"] == "sent" && m["deviceStatus"] == "Down")
                .await;
        assert_eq!(sent["valveCommand"]["commandId"], json!(command_id));
        gw.send("ack", json!({"messageId": 20, "timestamp": now, "commandId": command_id, "ok": true}).to_string())
            .await;
        gw.acked(1).await;
        json_when(&app, &meter_path, |m| m["valveCommand"]["status"] == "acked").await;

        // A rejection sends nothing: the next command is the next confirmation's.
        answer(&app, &meters[1], "rejected").await;
        answer(&app, &meters[2], "confirmed").await;
        assert_eq!(gw.command().await["requestId"], "r-3");
        assert_eq!(app.json(&format!("/api/proxy/wmeters/{}", meters[1]), 200).await["valveCommand"], Value::Null);

        // Rebuilding the tables from the log sends nothing again.
        let log = app.event_log();
        for p in wm_telemetry_ingest::projections(app.db()).into_iter().chain(wm_device_registry::projections(app.db()))
        {
            projection::rebuild(log.as_ref(), p.as_ref(), RunOptions::default()).await.unwrap();
        }
        answer(&app, &meters[3], "confirmed").await;
        assert_eq!(gw.command().await["requestId"], "r-4", "nothing was sent by the rebuild");
        let acked = app.json(&meter_path, 200).await;
        assert_eq!(acked["valveCommand"]["status"], "acked", "the rebuild restored the command's state");
    }
}
