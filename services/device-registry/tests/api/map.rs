//! The network on a map (docs/map.md): where the network is; a wide view's
//! clusters, counted per cell, with the worst health of each; a close
//! view's devices themselves, live; a device that stands alone is a marker;
//! bad views named.

use chrono::Duration;
use serde_json::{Value, json};
use wm_domain::Clock;
use wm_proto::{Envelope, Payload, v1::AlertRaised};

use super::{gateway_body, meter_body, register};
use crate::helpers::{TestApp, eventually, spawn_each};

/// Registers a device of `kind` (`gateways` or `wmeters`) at `(lon, lat)`.
async fn at(app: &TestApp, kind: &str, mut body: Value, lon: f64, lat: f64) -> String {
    body["gpsCoordinates"] = json!([lon, lat]);
    register(app, kind, body).await
}

/// The view of `bbox` once `ready` holds.
async fn view(app: &TestApp, bbox: &str, ready: impl Fn(&Value) -> bool) -> Value {
    eventually(bbox, || async {
        let view = app.json(&format!("/api/map?bbox={bbox}"), 200).await;
        ready(&view).then_some(view)
    })
    .await
}

fn healths(items: &Value) -> Vec<(String, String)> {
    let mut all: Vec<(String, String)> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["name"].as_str().unwrap_or_default().to_owned(), m["health"].as_str().unwrap().to_owned()))
        .collect();
    all.sort();
    all
}

#[tokio::test]
async fn a_view_shows_clusters_far_away_and_devices_up_close_with_their_health() {
    for app in spawn_each().await {
        // At the wide view's level (15, cells 0.011° square) the three meters
        // share a cell, and the gateway and the fourth meter have one each.
        at(&app, "gateways", gateway_body(1), 4.79, 45.75).await;
        let mut near = Vec::new();
        for (n, (lon, lat)) in [(4.8050, 45.7550), (4.8051, 45.7551), (4.8052, 45.7552)].into_iter().enumerate() {
            near.push(at(&app, "wmeters", meter_body(n as u32 + 1), lon, lat).await);
        }
        at(&app, "wmeters", meter_body(4), 4.95, 45.85).await;
        let critical = AlertRaised {
            meter_id: near[0].clone(),
            alert_type: "leak".into(),
            gateway_id: String::new(),
            message_id: 1,
        };
        let raised = Envelope::new(near[0].as_str(), "gateway:test", Payload::AlertRaised(critical))
            .with_occurred_at(app.clock.now());
        app.publish(&[raised]).await;
        eventually("the meter critical", || async {
            (app.json(&format!("/api/proxy/wmeters/{}", near[0]), 200).await["criticalState"] == true).then_some(())
        })
        .await;

        // Where the network is: every device, once counted.
        let extent = eventually("the extent", || async {
            let extent = app.json("/api/map/extent", 200).await;
            (extent["devices"] == 5).then_some(extent)
        })
        .await;
        assert_eq!(extent["bbox"], json!([4.79, 45.75, 4.95, 45.85]));

        // A wide view: the three meters close together are one cluster, the
        // worst of them critical; the others stand alone.
        let wide = view(&app, "4.7,45.7,5.0,45.9", |v| {
            v["clusters"].as_array().is_some_and(|c| c.len() == 1) && v["clusters"][0]["critical"] == 1
        })
        .await;
        let cluster = &wide["clusters"][0];
        assert_eq!((cluster["count"].as_i64(), cluster["meters"].as_i64()), (Some(3), Some(3)));
        assert_eq!((cluster["health"].as_str(), cluster["healthy"].as_i64()), (Some("critical"), Some(2)));
        assert_eq!(cluster["bbox"], json!([4.8050, 45.7550, 4.8052, 45.7552]));
        assert!((cluster["lon"].as_f64().unwrap() - 4.8051).abs() < 1e-9, "drawn at the mean: {cluster}");
        let alone = [("GTW-GW00000001".into(), "healthy".into()), ("W-WM00000004".into(), "healthy".into())];
        assert_eq!(healths(&wide["markers"]), alone);
        assert_eq!((wide["total"].as_i64(), wide["truncated"].as_bool()), (Some(5), Some(false)));
        assert!(wide["countedAt"].is_string() && wide["level"].as_u64().unwrap() <= 16, "{wide}");

        // Up close: the devices themselves, live.
        let close =
            view(&app, "4.8045,45.7545,4.8055,45.7555", |v| v["markers"].as_array().is_some_and(|m| m.len() == 3))
                .await;
        assert!(close["level"].as_u64().unwrap() > 16 && close["clusters"] == json!([]), "{close}");
        let names = healths(&close["markers"]);
        assert_eq!(
            names,
            [
                ("W-WM00000001".into(), "critical".into()),
                ("W-WM00000002".into(), "healthy".into()),
                ("W-WM00000003".into(), "healthy".into())
            ]
        );
        assert_eq!(close["markers"][0]["kind"], "meter");

        // Three hours later the gateway, never seen, is lost: at once up
        // close, at the next count from afar.
        app.clock.advance(Duration::hours(3));
        let gateway_close = app.json("/api/map?bbox=4.7895,45.7495,4.7905,45.7505", 200).await;
        assert_eq!(healths(&gateway_close["markers"]), [("GTW-GW00000001".into(), "lost".into())]);
        let wide = view(&app, "4.7,45.7,5.0,45.9", |v| healths(&v["markers"])[0].1 == "lost").await;
        assert_eq!(healths(&wide["markers"])[0].0, "GTW-GW00000001");

        for bad in ["1,2,3", "5,45,4,46", "0,0,1,91", "a,b,c,d"] {
            let body = app.json(&format!("/api/map?bbox={bad}"), 400).await;
            assert!(body["fields"]["bbox"].is_string(), "{bad}: {body}");
        }
    }
}
