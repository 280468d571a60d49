//! Device state from telemetry and shutdown events, and the lost, down,
//! critical and unhealthy rules (DESIGN §6), with the test clock.

use chrono::{DateTime, Duration, Utc};
use serde_json::json;
use wm_domain::Clock;
use wm_proto::{
    Envelope, Payload,
    time::to_timestamp,
    v1::{
        AlertCleared, AlertRaised, GatewayActivity, GatewayStatusChanged, PeripheralDiscovered, ReadingReceived,
        ShutdownAnswerStatus, ShutdownAnswered, VolumeUnit,
    },
};

use super::{count_becomes, gateway_body, ids, meter_body, register};
use crate::helpers::{TestApp, eventually, spawn_each};

/// An event about `device` that happened, and was recorded, at `at`.
fn event(device: &str, at: DateTime<Utc>, payload: Payload) -> Envelope {
    let mut envelope = Envelope::new(device, "gateway:test", payload).with_occurred_at(at);
    envelope.recorded_at = Some(to_timestamp(at));
    envelope
}

fn heard(gateway: &str, meter: Option<&str>, at: DateTime<Utc>, message_id: u64) -> Envelope {
    let activity = GatewayActivity {
        gateway_id: gateway.into(),
        meter_id: meter.map(Into::into),
        mqtt_topic: "wmeter/v1/gw/X/reading".into(),
        action: "reading".into(),
        message_id,
    };
    event(gateway, at, Payload::GatewayActivity(activity))
}

fn reading(meter: &str, gateway: &str, litres: u64, at: DateTime<Utc>, message_id: u64) -> Envelope {
    let reading = ReadingReceived {
        meter_id: meter.into(),
        gateway_id: gateway.into(),
        record: litres,
        unit: VolumeUnit::Litre.into(),
        message_id,
    };
    event(meter, at, Payload::ReadingReceived(reading))
}

async fn list(app: &TestApp, path: &str) -> Vec<String> {
    let mut got = ids(&app.json(path, 200).await);
    got.sort();
    got
}

fn sorted(ids: &[&String]) -> Vec<String> {
    let mut out: Vec<String> = ids.iter().map(|s| (*s).clone()).collect();
    out.sort();
    out
}

#[tokio::test]
async fn telemetry_keeps_device_state_current() {
    for app in spawn_each().await {
        let t0 = app.clock.now();
        let (g1, g2) =
            (register(&app, "gateways", gateway_body(1)).await, register(&app, "gateways", gateway_body(2)).await);
        let meter = register(&app, "wmeters", meter_body(1)).await;
        let peripheral = |ble: &str, id| {
            let found = PeripheralDiscovered {
                gateway_id: g1.clone(),
                device_name: "x".into(),
                ble_address: ble.into(),
                message_id: id,
            };
            event(&g1, t0, Payload::PeripheralDiscovered(found))
        };
        app.publish(&[
            heard(&g1, Some(&meter), t0, 1),
            reading(&meter, &g1, 40, t0, 2),
            reading(&meter, &g1, 2, t0, 3),
            peripheral("AA:AA:AA:AA:AA:01", 4),
            peripheral("AA:AA:AA:AA:AA:01", 5),
            peripheral("AA:AA:AA:AA:AA:02", 6),
        ])
        .await;
        let path = format!("/api/proxy/wmeters/{meter}");
        // Readings and activity are separate topics: each arrives in its own time.
        let state = eventually("readings and activity applied", || async {
            let m = app.json(&path, 200).await;
            (m["totalConsumption"] == json!(42.0) && m["lastseen"].is_string()).then_some(m)
        })
        .await;
        assert_eq!(state["lastGatewayId"], json!(g1));
        let gateway = eventually("discoveries applied", || async {
            let g = app.json(&format!("/api/proxy/gateways/{g1}"), 200).await;
            (g["discoveredPeripheralsCount"] == 2).then_some(g)
        })
        .await;
        assert_eq!(
            (&gateway["recordsCount"], &gateway["waterMetersCount"], &gateway["discoveredPeripheralsCount"]),
            (&json!(2), &json!(1), &json!(2))
        );
        assert_eq!(gateway["isOnline"], true, "seen within the online window");

        // The meter moves to another gateway; the session of that one drops.
        app.publish(&[reading(&meter, &g2, 1, t0, 7)]).await;
        eventually("the meter moved", || async {
            (app.json(&format!("/api/proxy/gateways/{g2}"), 200).await["waterMetersCount"] == 1).then_some(())
        })
        .await;
        assert_eq!(app.json(&format!("/api/proxy/gateways/{g1}"), 200).await["waterMetersCount"], 0);

        let status = |online| {
            event(&g2, t0, Payload::GatewayStatusChanged(GatewayStatusChanged { gateway_id: g2.clone(), online }))
        };
        app.publish(&[status(true)]).await;
        let g2_path = format!("/api/proxy/gateways/{g2}");
        eventually("session up", || async { (app.json(&g2_path, 200).await["isOnline"] == true).then_some(()) }).await;
        app.clock.advance(Duration::minutes(30));
        assert_eq!(app.json(&g2_path, 200).await["isOnline"], true, "the session keeps it online");
        app.publish(&[status(false)]).await;
        eventually("last will", || async { (app.json(&g2_path, 200).await["isOnline"] == false).then_some(()) }).await;
        assert_eq!(app.json(&format!("/api/proxy/gateways/{g1}"), 200).await["isOnline"], false, "window passed");
    }
}

#[tokio::test]
async fn lost_down_critical_and_unhealthy_follow_the_rules() {
    for app in spawn_each().await {
        let t0 = app.clock.now();
        let seen_gw = register(&app, "gateways", gateway_body(1)).await;
        let silent_gw = register(&app, "gateways", gateway_body(2)).await;
        let [fine, silent, critical, down] = [
            register(&app, "wmeters", meter_body(1)).await,
            register(&app, "wmeters", meter_body(2)).await,
            register(&app, "wmeters", meter_body(3)).await,
            register(&app, "wmeters", meter_body(4)).await,
        ];
        let alert = |raised: bool, kind: &str| {
            let (meter_id, alert_type, gateway_id) = (critical.clone(), kind.to_owned(), seen_gw.clone());
            let payload = if raised {
                Payload::AlertRaised(AlertRaised { meter_id, alert_type, gateway_id, message_id: 1 })
            } else {
                Payload::AlertCleared(AlertCleared { meter_id, alert_type, gateway_id, message_id: 2 })
            };
            event(&critical, t0, payload)
        };
        let shutdown = ShutdownAnswered {
            meter_id: down.clone(),
            request_id: "r1".into(),
            status: ShutdownAnswerStatus::Confirmed.into(),
            answered_by: "u1".into(),
        };
        app.publish(&[
            alert(true, "leak"),
            alert(true, "tamper"),
            event(&down, t0, Payload::ShutdownAnswered(shutdown)),
        ])
        .await;
        count_becomes(&app, "/api/proxy/wmeters/down/count", 1).await;
        count_becomes(&app, "/api/proxy/wmeters/critical/count", 1).await;
        assert_eq!(list(&app, "/api/proxy/wmeters/down").await, std::slice::from_ref(&down));
        assert_eq!(list(&app, "/api/proxy/wmeters/critical").await, std::slice::from_ref(&critical));
        assert_eq!(app.json(&format!("/api/proxy/wmeters/{down}"), 200).await["deviceStatus"], "Down");
        assert_eq!(app.json("/api/proxy/gateways/lost/count", 200).await, json!({"count": 0}));
        assert_eq!(app.json("/api/proxy/wmeters/unhealthy/count", 200).await, json!({"count": 2}));

        // Three hours on: a gateway heard just now is fine, the silent one is lost.
        app.clock.advance(Duration::hours(3));
        let now = app.clock.now();
        app.publish(&[heard(&seen_gw, Some(&fine), now, 9)]).await;
        eventually("heard", || async {
            let lost = list(&app, "/api/proxy/gateways/lost").await;
            (lost == [silent_gw.clone()]).then_some(())
        })
        .await;
        assert_eq!(app.json("/api/proxy/gateways/lost/count", 200).await, json!({"count": 1}));
        assert_eq!(app.json("/api/proxy/wmeters/lost/count", 200).await, json!({"count": 0}), "25 h for meters");

        // A day later every meter but the one heard is lost; unhealthy counts each once.
        app.clock.advance(Duration::hours(23));
        assert_eq!(list(&app, "/api/proxy/wmeters/lost").await, sorted(&[&silent, &critical, &down]));
        assert_eq!(app.json("/api/proxy/wmeters/lost/count", 200).await, json!({"count": 3}));
        assert_eq!(app.json("/api/proxy/wmeters/unhealthy/count", 200).await, json!({"count": 3}));
        app.clock.advance(Duration::hours(3));
        assert_eq!(app.json("/api/proxy/wmeters/unhealthy/count", 200).await, json!({"count": 4}));

        // Critical until every raised alert is cleared. A reading on the same
        // meter (so the same partition) marks when the clear was applied.
        app.publish(&[alert(false, "leak"), reading(&critical, &seen_gw, 1, now, 10)]).await;
        let path = format!("/api/proxy/wmeters/{critical}");
        let after_one = eventually("one alert cleared", || async {
            let meter = app.json(&path, 200).await;
            (meter["totalConsumption"] == json!(1.0)).then_some(meter)
        })
        .await;
        assert_eq!(after_one["criticalState"], true, "the tamper alert is still raised");
        app.publish(&[alert(false, "tamper")]).await;
        count_becomes(&app, "/api/proxy/wmeters/critical/count", 0).await;
        assert_eq!(app.json(&path, 200).await["criticalState"], false);
    }
}
