//! The valve chain: a confirmed shutdown sends a close command to the
//! gateway that heard the meter, the gateway acks it, and the meter shows
//! it acked. A rejection sends nothing, and a rebuild sends nothing again.

use reqwest::Method;
use serde_json::{Value, json};
use wm_domain::Clock;
use wm_eventlog::projection::{self, RunOptions};
use wm_http::auth::Role;

use wm_storage::with_pool;

use super::{Gateway, json_when, known, rows};
use crate::{
    helpers::{TestApp, eventually, spawn_app, spawn_each},
    monitoring::sample,
    suite::{address, gateway_body, meter_body, register},
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

        // Rebuilding the tables from the log sends nothing again. (The
        // dispatcher's `sent` reaches the log through the outbox: wait for
        // both, or the rebuild would rightly find r-3 still pending.)
        eventually("both commands sent, in the log", || async {
            let sent = app.events(wm_proto::topics::COMMANDS).await;
            let n = sent.iter().filter(|e| matches!(e.payload, Some(wm_proto::Payload::ValveCommandSent(_)))).count();
            (n >= 2).then_some(())
        })
        .await;
        let log = app.event_log();
        for p in wm_telemetry_ingest::projections(
            app.db(),
            &Default::default(),
            app.clock.clone(),
            (&app.ingest_relay(), &Default::default()),
        )
        .into_iter()
        .chain(wm_device_registry::projections(app.db(), app.clock.clone()))
        {
            projection::rebuild(log.as_ref(), p.as_ref(), RunOptions::default()).await.unwrap();
        }
        answer(&app, &meters[3], "confirmed").await;
        assert_eq!(gw.command().await["requestId"], "r-4", "nothing was sent by the rebuild");
        let acked = app.json(&meter_path, 200).await;
        assert_eq!(acked["valveCommand"]["status"], "acked", "the rebuild restored the command's state");
    }
}

/// The shutdown confirm fails closed: when its audit record cannot be
/// written, the answer is not saved and no valve command is sent.
#[tokio::test]
async fn a_confirmation_that_cannot_be_audited_moves_no_valve() {
    let app = spawn_app().await;
    let (meter, mut gw) = one_shutdown_request(&app).await;
    let status_path = format!("/api/proxy/wmeters/shutdown-requests/{meter}");

    // The audit store (the embedded log: the outbox in its own database)
    // refuses the confirmation's record, and only it.
    execute(
        &app,
        "CREATE TRIGGER audit_down BEFORE INSERT ON event_log_records \
         WHEN instr(NEW.payload, CAST('shutdown.confirm' AS BLOB)) > 0 \
         BEGIN SELECT RAISE(ABORT, 'the audit store is down'); END",
    )
    .await;
    let response = app.send_as(Role::Operator, Method::PATCH, &status_path, Some(json!({"status": "confirmed"}))).await;
    assert_eq!(response.status(), 503);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "audit_unavailable");
    assert!(body["message"].as_str().unwrap().contains("no valve command was sent"), "{body}");
    assert_eq!(app.json(&status_path, 200).await["status"], "requested", "the answer was not saved");
    assert_eq!(rows(&app, "SELECT COUNT(*) FROM valve_commands").await, 0, "no command was queued");

    execute(&app, "DROP TRIGGER audit_down").await;
    answer(&app, &meter, "confirmed").await;
    let command = gw.command().await;
    assert_eq!(command["requestId"], "r-1", "the first command sent is the audited confirmation's");
    let entry = eventually("the confirmation's audit entry", || async {
        let trail = app.get_as(Role::Admin, "/api/audit").await.json::<Value>().await.unwrap();
        trail["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["action"] == "shutdown.confirm" && e["outcome"] == "ok")
            .cloned()
    })
    .await;
    assert_eq!((&entry["target"], &entry["role"]), (&json!(meter), &json!("operator")));
    assert_eq!((&entry["before"]["status"], &entry["after"]["status"]), (&json!("requested"), &json!("confirmed")));
    assert_eq!(entry["after"]["valveCommandId"], command["commandId"]);
}

/// One meter, heard by its gateway, which asks to shut it down (`r-1`):
/// the meter's id and the gateway.
async fn one_shutdown_request(app: &TestApp) -> (String, Gateway) {
    register(app, "gateways", gateway_body(1)).await;
    let meter = register(app, "wmeters", meter_body(1)).await;
    known(app, 1, 1).await;
    let mut gw = Gateway::connect(app, "GW00000001").await;
    let now = app.clock.now().to_rfc3339();
    let ble = address(0xC0, 1);
    gw.send("ble", json!({"messageId": 1, "timestamp": now, "meter": ble, "rssi": -60}).to_string()).await;
    gw.send(
        "shutdown-request",
        json!({"messageId": 2, "timestamp": now, "meter": ble, "requestId": "r-1"}).to_string(),
    )
    .await;
    gw.acked(2).await;
    json_when(app, &format!("/api/proxy/wmeters/shutdown-requests/{meter}"), |s| s["status"] == "requested").await;
    (meter, gw)
}

/// The dispatcher counts the commands it sends, and the sweep those it
/// times out (`wmeter_valve_commands_total`, which deploy/monitoring alerts on).
#[tokio::test]
async fn sent_and_timed_out_commands_are_counted() {
    let app = spawn_app().await;
    let (meter, mut gw) = one_shutdown_request(&app).await;
    let commands = |status: &'static str| {
        let app = &app;
        async move { sample(app, "wmeter_valve_commands_total", &format!("status=\"{status}\"")).await }
    };
    assert_eq!((commands("sent").await, commands("timed-out").await), (Some(0.0), Some(0.0)));
    answer(&app, &meter, "confirmed").await;
    gw.command().await;
    eventually("the command counted sent", || async { (commands("sent").await == Some(1.0)).then_some(()) }).await;
    // The timeout is 10 minutes; nobody acks.
    app.clock.advance(chrono::Duration::minutes(11));
    eventually("the command counted timed out", || async { (commands("timed-out").await == Some(1.0)).then_some(()) })
        .await;
    assert_eq!(commands("sent").await, Some(1.0), "a timed-out command is not sent again");
}

async fn execute(app: &TestApp, sql: &'static str) {
    with_pool!(app.db(), pool => sqlx::query(sql).execute(pool).await.map(drop)).unwrap();
}

/// A confirmation while the gateway is offline waits, and is sent exactly
/// once when the gateway is back (a gateway may have no persistent session
/// that would keep it).
#[tokio::test]
async fn a_command_for_an_offline_gateway_waits_and_goes_once_it_is_back() {
    for app in spawn_each(|_| {}).await {
        register(&app, "gateways", gateway_body(1)).await;
        let meter = register(&app, "wmeters", meter_body(1)).await;
        known(&app, 1, 1).await;
        let now = app.clock.now().to_rfc3339();
        let ble = address(0xC0, 1);
        let gw = Gateway::connect(&app, "GW00000001").await;
        let online = json!({"status": "online", "messageId": 1, "timestamp": now}).to_string();
        gw.send("status", online.clone()).await;
        gw.send("ble", json!({"messageId": 2, "timestamp": now, "meter": ble, "rssi": -60}).to_string()).await;
        let request = json!({"messageId": 3, "timestamp": now, "meter": ble, "requestId": "r-offline"});
        gw.send("shutdown-request", request.to_string()).await;
        let status_path = format!("/api/proxy/wmeters/shutdown-requests/{meter}");
        json_when(&app, &status_path, |s| s["status"] == "requested").await;

        gw.crash();
        eventually("ingest saw the last will", || async {
            (rows(&app, "SELECT COUNT(*) FROM gateway_sessions WHERE NOT online").await == 1).then_some(())
        })
        .await;
        answer(&app, &meter, "confirmed").await;
        tokio::time::sleep(std::time::Duration::from_secs(2)).await;
        assert_eq!(
            rows(&app, "SELECT COUNT(*) FROM valve_commands WHERE status = 'pending'").await,
            1,
            "the command waits for the gateway"
        );

        let mut back = Gateway::connect(&app, "GW00000001").await;
        back.send("status", json!({"status": "online", "messageId": 4, "timestamp": now}).to_string()).await;
        let command = back.command().await;
        assert_eq!((&command["requestId"], &command["meter"]), (&json!("r-offline"), &json!("C0:00:00:00:00:01")));
        back.no_command_within(std::time::Duration::from_secs(3)).await;
        json_when(&app, &format!("/api/proxy/wmeters/{meter}"), |m| m["valveCommand"]["status"] == "sent").await;
    }
}
