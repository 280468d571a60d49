//! Valve commands followed to the end: a command no gateway acknowledges in
//! time is timed out and raises a `valve-timeout` alarm (the clock is the
//! test's); an operator resends a timed-out or failed one; a confirmation
//! no gateway can carry out is refused, and nothing is saved or sent.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use wm_domain::Clock;
use wm_http::auth::Role;
use wm_proto::{Envelope, Payload, topics, v1::GatewayDeleted};
use wm_storage::with_pool;

use crate::helpers::{Gateway, TestApp, address, eventually, gateway, json_when, known, meter, spawn_each};

fn shutdown(meter: &str) -> String {
    format!("/api/proxy/wmeters/shutdown-requests/{meter}")
}

fn timeline(meter: &str) -> String {
    format!("/api/valve-commands?meter={meter}")
}

/// Meter `n` heard by `gw`, which asks to shut it down.
async fn requested(app: &TestApp, gw: &mut Gateway, meter: &str, n: u32) {
    let (now, ble) = (app.clock.now().to_rfc3339(), address(0xC0, n));
    gw.send("ble", json!({"messageId": 10 * n, "timestamp": now, "meter": ble, "rssi": -60}).to_string()).await;
    let request = json!({"messageId": 10 * n + 1, "timestamp": now, "meter": ble, "requestId": format!("r-{n}")});
    gw.send("shutdown-request", request.to_string()).await;
    gw.acked(2).await;
    json_when(app, &shutdown(meter), |s| s["status"] == "requested").await;
}

async fn answer(app: &TestApp, meter: &str, status: &str) -> (u16, Value) {
    let response = app.send_as(Role::Operator, Method::PATCH, &shutdown(meter), Some(json!({"status": status}))).await;
    (response.status().as_u16(), response.json().await.unwrap())
}

async fn resend(app: &TestApp, role: Role, command: &str) -> (u16, Value) {
    let response = app.send_as(role, Method::POST, &format!("/api/valve-commands/{command}/resend"), None).await;
    (response.status().as_u16(), response.json().await.unwrap())
}

async fn ack(app: &TestApp, gw: &mut Gateway, message_id: u64, command: &Value, ok: bool) {
    let now = app.clock.now().to_rfc3339();
    let ack = json!({"messageId": message_id, "timestamp": now, "commandId": command["commandId"], "ok": ok, "detail": "valve stuck"});
    gw.send("ack", ack.to_string()).await;
    gw.acked(1).await;
}

#[tokio::test]
async fn an_unacknowledged_command_times_out_into_an_alarm_and_can_be_resent_until_acked() {
    for app in spawn_each().await {
        gateway(&app, 1).await;
        let meter = meter(&app, 1).await;
        known(&app, 1, 1).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        requested(&app, &mut gw, &meter, 1).await;
        let ble = app.json(&format!("/api/proxy/wmeters/ble-activity/{meter}"), 200).await;
        assert_eq!((&ble[0]["gatewayName"], &ble[0]["meterName"]), (&json!("GTW-GW00000001"), &json!("W-WM00000001")));
        assert_eq!(answer(&app, &meter, "confirmed").await.0, 200);
        let first = gw.command().await;
        let commands = json_when(&app, &timeline(&meter), |t| t[0]["status"] == "sent").await;
        assert_eq!(
            (&commands[0]["commandId"], &commands[0]["issuedByName"]),
            (&first["commandId"], &json!("test-user"))
        );
        assert!(commands[0]["sentAt"].is_string() && commands[0]["settledAt"].is_null(), "{commands}");

        // Nine minutes: still waiting. Eleven: timed out, and an alarm.
        app.clock.advance(chrono::Duration::minutes(9));
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(app.json(&timeline(&meter), 200).await[0]["status"], "sent");
        app.clock.advance(chrono::Duration::minutes(2));
        let commands = json_when(&app, &timeline(&meter), |t| t[0]["status"] == "timed-out").await;
        assert!(commands[0]["settledAt"].is_string());
        let alarms = json_when(&app, "/api/alarms?type=valve-timeout", |p| p["items"][0]["status"] == "active").await;
        let alarm = &alarms["items"][0];
        assert_eq!((&alarm["severity"], &alarm["deviceId"]), (&json!("major"), &json!(meter)));
        assert_eq!(
            (&alarm["details"]["commandId"], &alarm["raisedBy"]["name"]),
            (&first["commandId"], &json!("w-meter"))
        );
        ack(&app, &mut gw, 100, &first, true).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(app.json(&timeline(&meter), 200).await[0]["status"], "timed-out", "a late ack changes nothing");

        // Resent: a new command for the same request, which fails; resent again, acked.
        let (status, body) = resend(&app, Role::Viewer, first["commandId"].as_str().unwrap()).await;
        assert_eq!((status, body["code"].as_str()), (403, Some("forbidden")));
        let (status, body) = resend(&app, Role::Operator, first["commandId"].as_str().unwrap()).await;
        assert_eq!(status, 200, "{body}");
        let second = gw.command().await;
        assert_eq!((&second["commandId"], &second["requestId"]), (&body["commandId"], &json!("r-1")));
        ack(&app, &mut gw, 101, &second, false).await;
        let commands = json_when(&app, &timeline(&meter), |t| t[0]["status"] == "failed").await;
        assert_eq!((&commands[0]["resendOf"], &commands[0]["detail"]), (&first["commandId"], &json!("valve stuck")));
        let (status, _) = resend(&app, Role::Operator, second["commandId"].as_str().unwrap()).await;
        assert_eq!(status, 200);
        let third = gw.command().await;
        ack(&app, &mut gw, 102, &third, true).await;
        let commands = json_when(&app, &timeline(&meter), |t| t[0]["status"] == "acked").await;
        let statuses: Vec<_> = commands.as_array().unwrap().iter().map(|c| c["status"].as_str().unwrap()).collect();
        assert_eq!(statuses, ["acked", "failed", "timed-out"], "newest first");
        let (status, body) = resend(&app, Role::Operator, third["commandId"].as_str().unwrap()).await;
        assert_eq!((status, body["code"].as_str()), (409, Some("not_resendable")));
        let (status, body) = resend(&app, Role::Operator, "no-such-command").await;
        assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));
        json_when(&app, &format!("/api/alarms/counts?device={meter}"), |c| c["active"] == 1).await;

        let timed_out = eventually("the timeout on the log", || async {
            let n = app
                .events(topics::COMMANDS)
                .await
                .iter()
                .filter(|e| matches!(e.payload, Some(Payload::ValveCommandTimedOut(_))))
                .count();
            (n > 0).then_some(n)
        })
        .await;
        assert_eq!(timed_out, 1, "timed out once, though the sweep runs every second");
    }
}

#[tokio::test]
async fn a_confirmation_no_gateway_can_carry_out_is_refused_and_saves_nothing() {
    for app in spawn_each().await {
        let gateway_id = gateway(&app, 1).await;
        let meter = meter(&app, 1).await;
        known(&app, 1, 1).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        requested(&app, &mut gw, &meter, 1).await;
        // The only gateway that heard the meter is deleted.
        let deleted = GatewayDeleted { id: gateway_id.clone() };
        app.publish(&[Envelope::new(&gateway_id, "test-user", Payload::GatewayDeleted(deleted))]).await;
        eventually("ingest forgets the gateway", || async {
            let sql = "SELECT COUNT(*) FROM ingest_gateways";
            let n: i64 = with_pool!(app.db(), pool => sqlx::query_scalar(sql).fetch_one(pool).await).unwrap();
            (n == 0).then_some(())
        })
        .await;

        let (status, body) = answer(&app, &meter, "confirmed").await;
        assert_eq!((status, body["code"].as_str()), (409, Some("no_gateway")));
        assert!(body["message"].as_str().unwrap().contains("still pending"), "{body}");
        assert_eq!(app.json(&shutdown(&meter), 200).await["status"], "requested", "nothing was saved");
        assert_eq!(app.json(&timeline(&meter), 200).await, json!([]), "no command was queued");
        gw.no_command_within(Duration::from_secs(1)).await;
        assert_eq!(answer(&app, &meter, "rejected").await.0, 200, "a rejection needs no gateway");
    }
}
