//! The registry stopped for 10 s: its routes answer 503 through the gateway
//! while the rest keeps serving, and once it is back its outbox delivers
//! every event it had not published yet.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::{
    client::{Operator, Uplink, eventually, until_known},
    cluster,
};

const DEVICES: u32 = 20;

#[tokio::test]
async fn registry_outage_gives_503_then_its_outbox_delivers_everything() {
    let Some(mut cluster) = cluster::start().await else { return };
    let operator = Operator::create(&cluster, "bob").await;
    let mut ids = Vec::new();
    for n in 1..=DEVICES {
        ids.push(operator.register_gateway(n).await);
    }
    // Killed at once, the registry may leave registrations in its outbox
    // that no other service has heard of yet.
    cluster.kill("device-registry");

    let down_since = Instant::now();
    while down_since.elapsed() < Duration::from_secs(10) {
        let response = operator.get("/api/proxy/gateways/count").await;
        assert_eq!(response.status(), 503);
        assert_eq!(response.json::<Value>().await.unwrap()["code"], "service_unavailable");
        assert_eq!(
            operator.get("/api/proxy/gateways/gateway-activity?max=1").await.status(),
            200,
            "ingest still serves"
        );
        tokio::time::sleep(Duration::from_secs(1)).await;
    }

    cluster.start_process("device-registry");
    cluster.wait_ready("device-registry").await;
    assert_eq!(operator.json("/api/proxy/gateways/count").await["count"], DEVICES);
    // Ingest learns every gateway from the registry's events: each one's
    // uplinks are accepted.
    for (n, id) in (1..=DEVICES).zip(&ids) {
        let mut uplink = Uplink::connect(&cluster, &format!("TG{n:08}")).await;
        until_known(&operator, &mut uplink, id).await;
    }
    let activity = eventually("every gateway's activity", 30, || async {
        let rows = operator.json("/api/proxy/gateways/gateway-activity?max=500").await;
        let rows = rows.as_array().unwrap().clone();
        ids.iter().all(|id| rows.iter().any(|r| r["gatewayId"] == id.as_str())).then_some(rows)
    })
    .await;
    assert!(activity.len() >= DEVICES as usize);
}
