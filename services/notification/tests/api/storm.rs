//! A gateway with 50 meters falls silent: one notification, not fifty-one.

use std::time::Duration;

use chrono::Duration as Span;
use serde_json::Value;
use wm_domain::Clock;
use wm_http::auth::Role;
use wm_proto::{Envelope, Payload, time::to_timestamp, v1::GatewayActivity};

use crate::{
    events::{gateway, meter, until_counted, user},
    helpers::{eventually, spawn_each},
};

#[tokio::test]
async fn a_silent_gateway_is_one_notification() {
    for app in spawn_each(Duration::from_secs(15)).await {
        let ann = user(&app, "ann", Role::Operator).await;
        let gateway = gateway(&app, 1).await;
        let mut heard = Vec::new();
        for n in 0..50 {
            let meter = meter(&app, n).await;
            let activity = GatewayActivity {
                gateway_id: gateway.clone(),
                meter_id: Some(meter),
                mqtt_topic: "wmeter/v1/gw/GW00000001/reading".into(),
                action: "reading 1 L".into(),
                message_id: u64::from(n) + 1,
            };
            let mut envelope = Envelope::new(&gateway, "gateway:GW00000001", Payload::GatewayActivity(activity));
            envelope.recorded_at = Some(to_timestamp(app.clock.now()));
            heard.push(envelope);
        }
        app.publish(&heard).await;
        until_counted(&app, "the gateway's sightings are in", "notification_gateways", 1).await;

        app.clock.advance(Span::hours(30));
        let list = || {
            let request = app
                .client
                .get(format!("{}/api/notifications/{ann}", app.url))
                .bearer_auth(app.token_for(&ann, Role::Operator));
            async move { request.send().await.unwrap().json::<Value>().await.unwrap() }
        };
        let notified = eventually("the gateway is declared lost", || async {
            let all = list().await;
            (!all.as_array().unwrap().is_empty()).then_some(all)
        })
        .await;
        assert_eq!(notified[0]["event"], "gateway lost");
        assert_eq!(
            (notified[0]["deviceName"].as_str(), notified[0]["deviceKind"].as_str()),
            (Some("GTW-GW00000001"), Some("gateway"))
        );
        // Past another round of the lost check: still one.
        tokio::time::sleep(Duration::from_secs(6)).await;
        assert_eq!(list().await.as_array().unwrap().len(), 1, "one notification for the storm");
    }
}
