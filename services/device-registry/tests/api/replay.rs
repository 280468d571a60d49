//! `wmeter replay` rebuilds the registry's tables exactly from the log.

use reqwest::Method;
use serde_json::json;
use wm_eventlog::projection::{self, Effects, RunOptions};
use wm_http::auth::Role;
use wm_proto::{
    Envelope, Payload,
    v1::{AlertRaised, GatewayActivity, ReadingReceived, VolumeUnit},
};
use wm_storage::with_pool;

use super::{gateway_body, meter_body, register};
use crate::helpers::{TestApp, eventually, spawn_each};

/// Every row of the registry's tables, as text, in a stable order.
async fn snapshot(app: &TestApp) -> Vec<String> {
    let queries = [
        "SELECT id, serial_number, device_name, imei, phone_number, ble_address, mac_address, \
         CAST(longitude AS TEXT), CAST(latitude AS TEXT), CAST(registered_at AS TEXT), search_text, \
         CAST(lastseen AS TEXT), CAST(last_activity AS TEXT), CAST(session_online AS TEXT), \
         CAST(discovered_peripherals_count AS TEXT), CAST(records_count AS TEXT), CAST(water_meters_count AS TEXT) \
         FROM gateways ORDER BY id",
        "SELECT id, serial_number, device_name, ble_address, CAST(longitude AS TEXT), CAST(latitude AS TEXT), \
         CAST(registered_at AS TEXT), search_text, CAST(lastseen AS TEXT), CAST(last_activity AS TEXT), \
         CAST(total_consumption_ml AS TEXT), CAST(raised_alerts AS TEXT), CAST(critical AS TEXT), device_status, \
         last_gateway_id, valve_command_id, valve_command_status FROM meters ORDER BY id",
        "SELECT field, value, device_id FROM device_identifiers ORDER BY field, value",
        "SELECT name, CAST(value AS TEXT) FROM registry_counters ORDER BY name",
        "SELECT kind, CAST(last_micros AS TEXT) FROM registry_clock ORDER BY kind",
        "SELECT meter_id, alert_type FROM meter_alerts ORDER BY meter_id, alert_type",
        "SELECT gateway_id, ble_address FROM gateway_peripherals ORDER BY gateway_id, ble_address",
        "SELECT suffix, CAST(registered_at AS TEXT) FROM gateways_suffixes ORDER BY suffix, registered_at",
        "SELECT suffix, CAST(registered_at AS TEXT) FROM meters_suffixes ORDER BY suffix, registered_at",
    ];
    let mut rows = Vec::new();
    for sql in queries {
        let table: Vec<Vec<Option<String>>> = with_pool!(app.db(), pool => {
            use sqlx::Row;
            sqlx::query(sql)
                .fetch_all(pool)
                .await
                .map(|rows| rows.iter().map(|r| (0..r.len()).map(|i| r.get::<Option<String>, _>(i)).collect()).collect())
        })
        .unwrap();
        rows.extend(table.into_iter().map(|row| format!("{sql:.30}: {row:?}")));
    }
    rows
}

#[tokio::test]
async fn a_rebuild_gives_back_the_same_tables() {
    for app in spawn_each().await {
        let gateway = register(&app, "gateways", gateway_body(1)).await;
        let freed = register(&app, "gateways", gateway_body(2)).await;
        let meter = register(&app, "wmeters", meter_body(1)).await;
        let patch = json!({"phoneNumber": "0799999999", "gpsCoordinates": [2.35, 48.85]});
        let path = format!("/api/proxy/gateways/{gateway}");
        assert_eq!(app.send_as(Role::Operator, Method::PATCH, &path, Some(patch)).await.status(), 200);
        let path = format!("/api/proxy/gateways/{freed}");
        assert_eq!(app.send_as(Role::Operator, Method::DELETE, &path, None).await.status(), 204);
        let mut reused = gateway_body(3);
        reused["serialNumber"] = json!("GW00000002");
        register(&app, "gateways", reused).await;
        let activity = GatewayActivity {
            gateway_id: gateway.clone(),
            meter_id: Some(meter.clone()),
            mqtt_topic: "wmeter/v1/gw/GW00000001/reading".into(),
            action: "reading 5 L".into(),
            message_id: 1,
        };
        let reading = ReadingReceived {
            meter_id: meter.clone(),
            gateway_id: gateway.clone(),
            record: 5,
            unit: VolumeUnit::Litre.into(),
            message_id: 1,
        };
        let alert = AlertRaised {
            meter_id: meter.clone(),
            alert_type: "leak".into(),
            gateway_id: gateway.clone(),
            message_id: 2,
        };
        app.publish(&[
            Envelope::new(&gateway, "gateway:GW00000001", Payload::GatewayActivity(activity)),
            Envelope::new(&meter, "gateway:GW00000001", Payload::ReadingReceived(reading)),
            Envelope::new(&meter, "gateway:GW00000001", Payload::AlertRaised(alert)),
        ])
        .await;
        let meter_path = format!("/api/proxy/wmeters/{meter}");
        eventually("telemetry applied", || async {
            let m = app.json(&meter_path, 200).await;
            (m["criticalState"] == true && m["totalConsumption"] == json!(5.0) && !m["lastseen"].is_null())
                .then_some(())
        })
        .await;
        eventually("the outbox is relayed", || async {
            let staged: i64 = with_pool!(app.db(), pool =>
                sqlx::query_scalar("SELECT COUNT(*) FROM event_outbox_batch").fetch_one(pool).await)
            .unwrap();
            (staged == 0).then_some(())
        })
        .await;

        let before = snapshot(&app).await;
        assert!(before.len() > 10, "{before:?}");
        let log = app.event_log();
        for projection in wm_device_registry::projections(app.db(), app.clock.clone()) {
            projection::rebuild(log.as_ref(), projection.as_ref(), RunOptions::default()).await.unwrap();
        }
        assert_eq!(snapshot(&app).await, before);
    }
}

/// A rebuild can run while the service does: a live batch that comes
/// between its reset and its end is refused and retried after, so it
/// neither moves the checkpoints past records the rebuild has not reached
/// (which the rebuild would then skip) nor counts anything twice.
#[tokio::test]
async fn a_live_batch_waits_for_a_rebuild_under_way() {
    for app in spawn_each().await {
        let gateway = register(&app, "gateways", gateway_body(1)).await;
        let meter = register(&app, "wmeters", meter_body(1)).await;
        let reading = |message_id: u64| {
            let reading = ReadingReceived {
                meter_id: meter.clone(),
                gateway_id: gateway.clone(),
                record: 5,
                unit: VolumeUnit::Litre.into(),
                message_id,
            };
            Envelope::new(&meter, "gateway:GW00000001", Payload::ReadingReceived(reading))
        };
        app.publish(&[reading(1), reading(2), reading(3)]).await;
        let gateway_path = format!("/api/proxy/gateways/{gateway}");
        let counted = |n: u32| {
            let path = &gateway_path;
            let app = &app;
            async move {
                eventually("the readings counted", || async {
                    (app.json(path, 200).await["recordsCount"] == n).then_some(())
                })
                .await
            }
        };
        counted(3).await;
        let before = snapshot(&app).await;
        let log = app.event_log();
        let state = wm_device_registry::projections(app.db(), app.clock.clone())
            .into_iter()
            .find(|p| p.name() == "device-registry.state")
            .unwrap();
        let readings = wm_test_support::log::records(log.as_ref(), wm_proto::topics::READINGS).await;
        assert_eq!(readings.len(), 3);

        state.reset().await.unwrap();
        wm_test_support::log::assert_held_for_rebuild(state.as_ref(), &readings).await;
        projection::rebuild(log.as_ref(), state.as_ref(), RunOptions::default()).await.unwrap();
        assert_eq!(snapshot(&app).await, before, "the rebuild skipped nothing");
        state.apply(&readings, Effects::Live).await.unwrap();
        assert_eq!(snapshot(&app).await, before, "the retried batch counted nothing twice");

        // The running projection goes on after the rebuild.
        app.publish(&[reading(4)]).await;
        counted(4).await;
    }
}
