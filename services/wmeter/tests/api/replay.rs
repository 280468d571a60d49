//! Dropping every projection and replaying the log gives back every table
//! exactly (compared row by row, as text, but for the columns that link a
//! reading to its activity row: see `LINKS`), and sends nothing: no SSE
//! message, no valve command. Then every record delivered again (a
//! consumer killed between its projection's commit and its offset commit)
//! changes nothing either. Every service's projections, on both backends,
//! after traffic of every kind.

use std::time::Duration;

use reqwest::Method;
use serde_json::json;
use wm_domain::Clock;
use wm_eventlog::projection::{self, Effects, Projection, RunOptions};
use wm_http::auth::Role;
use wm_storage::{Backend, with_pool};
use wm_test_support::sse::{Events, notified};

use crate::{
    helpers::user,
    helpers::{TestApp, eventually, spawn_each},
    suite::{address, gateway_body, meter_body, register},
    telemetry::{Gateway, json_when, known},
};

/// Every table a projection writes (and a rebuild empties and refills).
const PROJECTION_TABLES: &[&str] = &[
    "gateways",
    "meters",
    "device_identifiers",
    "meter_alerts",
    "gateway_peripherals",
    "registry_counters",
    "registry_clock",
    "ingest_gateways",
    "ingest_meters",
    "gateway_activity",
    "ble_activity",
    "readings",
    "alerts",
    "discoveries",
    "shutdown_requests",
    "valve_commands",
    "gateway_sessions",
    "ingest_users",
    "alarms",
    "alarm_history",
    "alarm_counts",
    "meter_hourly",
    "meter_daily",
    "gateway_daily",
    "network_daily",
    "meter_totals",
    "meter_thresholds",
    "notification_users",
    "notification_devices",
    "notification_gateways",
    "notifications",
    "audit_log",
];

/// The columns that link a reading to its uplink's activity row
/// (telemetry migration 13): ingest writes the two linked, and a rebuild,
/// which reads them from different topics, unlinked. Either way a meter's
/// activity lists the same rows (compared through the API below), so the
/// snapshot leaves these out: they choose which index finds a row, and
/// hold no data of their own.
const LINKS: [&str; 2] = ["via_reading", "activity_id"];

/// Every row of every projection table, as text, sorted.
async fn snapshot(app: &TestApp) -> Vec<String> {
    let mut all = Vec::new();
    for table in PROJECTION_TABLES {
        let columns_sql = match app.db().backend() {
            Backend::Postgres => format!(
                "SELECT column_name::text FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND table_name = '{table}' ORDER BY ordinal_position"
            ),
            Backend::Sqlite => format!("SELECT name FROM pragma_table_info('{table}')"),
        };
        let columns: Vec<String> = with_pool!(app.db(), pool =>
            sqlx::query_scalar(sqlx::AssertSqlSafe(columns_sql)).fetch_all(pool).await)
        .unwrap();
        let columns: Vec<String> = columns.into_iter().filter(|c| !LINKS.contains(&c.as_str())).collect();
        let sql = match app.db().backend() {
            Backend::Postgres => format!("SELECT CAST(ROW({}) AS TEXT) FROM {table}", columns.join(", ")),
            Backend::Sqlite => {
                let row = columns.iter().map(|c| format!("quote({c})")).collect::<Vec<_>>().join(" || '|' || ");
                format!("SELECT {row} FROM {table}")
            }
        };
        let mut rows: Vec<String> =
            with_pool!(app.db(), pool => sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).fetch_all(pool).await)
                .unwrap_or_else(|e| panic!("{table}: {e}"));
        rows.sort();
        all.extend(rows.into_iter().map(|row| format!("{table}: {row}")));
    }
    all
}

/// The snapshot once it holds still for a second: every relay and
/// consumer has caught up.
async fn settled(app: &TestApp) -> Vec<String> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let mut last = snapshot(app).await;
    loop {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let now = snapshot(app).await;
        if now == last {
            return now;
        }
        assert!(tokio::time::Instant::now() < deadline, "the tables did not settle within 30 s");
        last = now;
    }
}

fn every_projection(app: &TestApp) -> Vec<std::sync::Arc<dyn Projection>> {
    let mut all = wm_auth::projections(app.db());
    all.extend(wm_device_registry::projections(app.db(), app.clock.clone()));
    all.extend(wm_telemetry_ingest::projections(
        app.db(),
        &Default::default(),
        app.clock.clone(),
        (&app.ingest_relay(), &Default::default()),
    ));
    all.extend(app.notification_projections());
    all
}

#[tokio::test]
async fn replaying_every_projection_restores_every_table_and_sends_nothing() {
    for app in spawn_each(|_| {}).await {
        let ann = user(&app, "ann", Role::Operator).await;
        let gateway = register(&app, "gateways", gateway_body(1)).await;
        let meters = [register(&app, "wmeters", meter_body(1)).await, register(&app, "wmeters", meter_body(2)).await];
        let edit = json!({"phoneNumber": "0799999999"});
        let gateway_path = format!("/api/proxy/gateways/{gateway}");
        assert_eq!(app.send_as(Role::Operator, Method::PATCH, &gateway_path, Some(edit)).await.status(), 200);
        assert_eq!(app.send_as(Role::Viewer, Method::DELETE, &gateway_path, None).await.status(), 403);
        known(&app, 1, 2).await;

        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let now = app.clock.now().to_rfc3339();
        let (ble1, ble2) = (address(0xC0, 1), address(0xC0, 2));
        let uplinks = [
            ("status", json!({"status": "online", "messageId": 1, "timestamp": now})),
            ("heartbeat", json!({"messageId": 2, "timestamp": now})),
            ("ble", json!({"messageId": 3, "timestamp": now, "meter": ble1, "rssi": -61})),
            ("ble", json!({"messageId": 4, "timestamp": now, "meter": ble2, "rssi": -70})),
            ("reading", json!({"messageId": 5, "timestamp": now, "meter": ble1, "record": 42, "unit": "L"})),
            ("alert", json!({"messageId": 6, "timestamp": now, "meter": ble2, "type": "leak", "state": "raised"})),
            ("discovery", json!({"messageId": 7, "timestamp": now, "name": "pump", "bleAddress": "DD:00:00:00:00:01"})),
            ("shutdown-request", json!({"messageId": 8, "timestamp": now, "meter": ble1, "requestId": "r-1"})),
        ];
        for (kind, payload) in &uplinks {
            gw.send(kind, payload.to_string()).await;
        }
        gw.acked(uplinks.len()).await;
        let status_path = format!("/api/proxy/wmeters/shutdown-requests/{}", meters[0]);
        json_when(&app, &status_path, |s| s["status"] == "requested").await;
        let answer = Some(json!({"status": "confirmed"}));
        assert_eq!(app.send_as(Role::Operator, Method::PATCH, &status_path, answer).await.status(), 200);
        let command = gw.command().await;
        let ack = json!({"messageId": 9, "timestamp": now, "commandId": command["commandId"], "ok": true});
        gw.send("ack", ack.to_string()).await;
        gw.acked(1).await;
        json_when(&app, &format!("/api/proxy/wmeters/{}", meters[0]), |m| m["valveCommand"]["status"] == "acked").await;
        let leak = json_when(&app, "/api/alarms?type=leak", |page| page["items"][0]["status"] == "active").await;
        let alarm = format!("/api/alarms/{}", leak["items"][0]["id"].as_str().unwrap());
        let actions = [
            ("acknowledge", json!({"note": "crew sent"})),
            ("assign", json!({"assignee": ann})),
            ("comment", json!({"text": "valve replaced"})),
            ("clear", json!({})),
        ];
        for (action, body) in actions {
            let response = app.send_as(Role::Operator, Method::POST, &format!("{alarm}/{action}"), Some(body)).await;
            assert_eq!(response.status(), 200, "{action}");
        }
        // A meter's own thresholds, and a leak its detectors find in
        // readings sent late: two hours of flow, then a dry hour.
        let thresholds = Some(json!({"continuousFlowHours": 2}));
        let path = format!("/api/thresholds/{}", meters[1]);
        assert_eq!(app.send_as(Role::Operator, Method::PUT, &path, thresholds).await.status(), 200);
        for (id, hours_ago, litres) in [(20, 4, 3), (21, 3, 3), (22, 2, 0), (23, 0, 0)] {
            let at = (app.clock.now() - chrono::TimeDelta::hours(hours_ago)).to_rfc3339();
            let reading = json!({"messageId": id, "timestamp": at, "meter": ble2, "record": litres, "unit": "L"});
            gw.send("reading", reading.to_string()).await;
        }
        gw.acked(4).await;
        json_when(&app, "/api/alarms?type=continuous-flow", |page| page["items"][0]["status"] == "cleared").await;
        eventually("ann's notifications", || async {
            let sql = "SELECT COUNT(*) FROM notifications";
            let n: i64 = with_pool!(app.db(), pool => sqlx::query_scalar(sql).fetch_one(pool).await).unwrap();
            (n >= 2).then_some(())
        })
        .await;
        let before = settled(&app).await;
        let filled =
            ["readings", "alerts", "valve_commands", "notifications", "audit_log", "gateway_sessions", "alarms"];
        let rollups = ["meter_totals"];
        for table in filled
            .into_iter()
            .chain(["alarm_history", "alarm_counts", "ingest_users", "meter_thresholds"])
            .chain(rollups)
        {
            assert!(before.iter().any(|row| row.starts_with(&format!("{table}: "))), "{table} has rows to compare");
        }

        let mut watching = Events::open(&app, &ann, None).await;
        // What the links leave out of the snapshot (see LINKS) decides
        // how a meter's activity is found: the lists must not move.
        let mut activity = Vec::new();
        for meter in &meters {
            let path = format!("/api/proxy/wmeters/gateway-activity/{meter}");
            let listed = app.json(&path, 200).await;
            assert!(!listed.as_array().unwrap().is_empty(), "{path} has activity to compare");
            activity.push((path, listed));
        }
        let log = app.event_log();
        for p in every_projection(&app) {
            let applied = projection::rebuild(log.as_ref(), p.as_ref(), RunOptions::default())
                .await
                .unwrap_or_else(|e| panic!("rebuilding {}: {e:?}", p.name()));
            assert!(applied > 0, "{} rebuilt from events, not left as it was", p.name());
        }
        let after = settled(&app).await;
        for (path, listed) in &activity {
            assert_eq!(&app.json(path, 200).await, listed, "{path}: a rebuild lists the same activity");
        }
        let lost: Vec<_> = before.iter().filter(|row| !after.contains(row)).collect();
        let gained: Vec<_> = after.iter().filter(|row| !before.contains(row)).collect();
        assert!(lost.is_empty() && gained.is_empty(), "{:?}: lost {lost:#?}\ngained {gained:#?}", app.db().backend());
        let during = watching.raw_within(Duration::from_millis(1500)).await;
        assert!(!notified(&during), "a replay notifies nobody: {during}");
        gw.no_command_within(Duration::from_secs(2)).await;

        // A consumer killed after its projection's commit but before its
        // offset commit gets the same records again: every live projection
        // applying every record a second time changes nothing. (The others
        // run only inside a rebuild, which starts from empty tables.)
        for p in every_projection(&app).into_iter().filter(|p| p.live()) {
            let mut again = log.replay(p.topics()).await.unwrap();
            while !again.caught_up() {
                let batch = again.poll(500, Duration::from_secs(1)).await.unwrap();
                if !batch.is_empty() {
                    p.apply(&batch, Effects::Live).await.unwrap_or_else(|e| panic!("{}: {e:?}", p.name()));
                }
            }
        }
        let redelivered = settled(&app).await;
        let changed: Vec<_> = redelivered.iter().filter(|row| !before.contains(row)).collect();
        assert!(changed.is_empty() && redelivered.len() == before.len(), "applied twice: {changed:#?}");
        let during = watching.raw_within(Duration::from_millis(1500)).await;
        assert!(!notified(&during), "a redelivery notifies nobody twice: {during}");
        gw.no_command_within(Duration::from_secs(2)).await;
    }
}
