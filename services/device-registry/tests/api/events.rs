//! What the registry tells the rest of the system: each registration is
//! relayed to the log once, saying who registered which device.

use serde_json::json;
use wm_proto::{Payload, topics};

use super::{gateway_body, register};
use crate::helpers::{eventually, spawn_each};

#[tokio::test]
async fn a_registration_is_relayed_with_who_and_which() {
    for app in spawn_each().await {
        let mut body = gateway_body(1);
        body["gpsCoordinates"] = json!([2.2944813, 48.8583701]);
        let id = register(&app, "gateways", body).await;
        let events = eventually("the registration is relayed", || async {
            Some(app.events(topics::REGISTRY).await).filter(|e| !e.is_empty())
        })
        .await;
        let [event] = events.as_slice() else { panic!("{events:?}") };
        assert_eq!((event.actor.as_str(), event.device_id.as_str()), ("test-user", id.as_str()), "who and which");
        assert!(matches!(&event.payload, Some(Payload::GatewayRegistered(g)) if g.serial_number == "GW00000001"));
    }
}
