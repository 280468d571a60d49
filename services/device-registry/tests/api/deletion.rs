//! Deleting devices: only one never seen. (Edits are in the HTTP suite.)

use reqwest::Method;
use serde_json::{Value, json};
use wm_http::auth::Role;
use wm_proto::{Envelope, Payload, v1::GatewayActivity};

use super::{gateway_body, meter_body, register};
use crate::helpers::{eventually, spawn_each};

#[tokio::test]
async fn only_a_device_never_seen_may_be_deleted() {
    for app in spawn_each().await {
        let unseen = register(&app, "gateways", gateway_body(1)).await;
        let seen = register(&app, "gateways", gateway_body(2)).await;
        let meter = register(&app, "wmeters", meter_body(1)).await;
        let activity = GatewayActivity {
            gateway_id: seen.clone(),
            meter_id: None,
            mqtt_topic: "wmeter/v1/gw/GW00000002/heartbeat".into(),
            action: "heartbeat".into(),
            message_id: 1,
        };
        app.publish(&[Envelope::new(&seen, "gateway:GW00000002", Payload::GatewayActivity(activity))]).await;
        let path = format!("/api/proxy/gateways/{seen}");
        eventually("the gateway is seen", || async {
            (!app.json(&path, 200).await["lastseen"].is_null()).then_some(())
        })
        .await;

        let refused = app.send_as(Role::Operator, Method::DELETE, &path, None).await;
        assert_eq!(refused.status(), 409);
        assert_eq!(refused.json::<Value>().await.unwrap()["code"], "device_seen");
        let viewer = app.send_as(Role::Viewer, Method::DELETE, &format!("/api/proxy/gateways/{unseen}"), None).await;
        assert_eq!(viewer.status(), 403);
        for (kind, id) in [("gateways", &unseen), ("wmeters", &meter)] {
            let path = format!("/api/proxy/{kind}/{id}");
            assert_eq!(app.send_as(Role::Operator, Method::DELETE, &path, None).await.status(), 204, "{kind}");
            app.json(&path, 404).await;
            assert_eq!(app.send_as(Role::Operator, Method::DELETE, &path, None).await.status(), 404, "{kind} again");
        }
        assert_eq!(app.json("/api/proxy/gateways/count", 200).await, json!({"count": 1}));
        assert_eq!(app.json("/api/proxy/wmeters/count", 200).await, json!({"count": 0}));
        register(&app, "gateways", gateway_body(1)).await;
    }
}
