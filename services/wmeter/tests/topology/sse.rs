//! Each notification replica serves its own SSE clients: a new alert reaches
//! a client of either replica, whichever replica projected it.

use serde_json::json;

use crate::{
    client::{Operator, Uplink, address, receives, until_known, until_meter_known},
    cluster,
};

#[tokio::test]
async fn a_client_of_each_notification_replica_receives_a_new_alert() {
    let Some(cluster) = cluster::start().await else { return };
    let operator = Operator::create(&cluster, "ann").await;
    let gateway_id = operator.register_gateway(1).await;
    let meter_id = operator.register_meter(1).await;
    let mut uplink = Uplink::connect(&cluster, "TG00000001").await;
    until_known(&operator, &mut uplink, &gateway_id).await;
    until_meter_known(&operator, &mut uplink, &address(0xC0, 1), &meter_id).await;

    let mut streams = Vec::new();
    for replica in ["notification-1", "notification-2"] {
        streams.push((replica, operator.notifications(&cluster.url(replica)).await));
    }
    uplink.send("alert", json!({"meter": address(0xC0, 1), "type": "leak", "state": "raised"})).await;

    // The meter's id, not its name: each replica learns names from the
    // registry's topic, in no set order with the alerts' topic.
    let needle = format!(r#""deviceId":"{meter_id}""#);
    let waits = streams.into_iter().map(|(replica, response)| receives(replica, response, needle.clone()));
    futures::future::join_all(waits).await;
}
