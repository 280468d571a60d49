//! 20,000 readings over MQTT while one of the two ingest replicas is killed
//! with SIGKILL and restarted: every reading is projected exactly once.

use serde_json::{Value, json};

use crate::{
    client::{Operator, Uplink, address, eventually, until_known},
    cluster,
};

const READINGS: u32 = 20_000;
const METERS: u32 = 10;

#[tokio::test]
async fn a_killed_ingest_replica_loses_and_repeats_nothing() {
    let Some(mut cluster) = cluster::start().await else { return };
    let operator = Operator::create(&cluster, "cid").await;
    // Meters first: registry events are totally ordered, so once ingest
    // knows the gateway it knows the meters too.
    let mut meters = Vec::new();
    for n in 1..=METERS {
        meters.push(operator.register_meter(n).await);
    }
    let gateway_id = operator.register_gateway(1).await;
    let mut uplink = Uplink::connect(&cluster, "TG00000001").await;
    until_known(&operator, &mut uplink, &gateway_id).await;
    let records_before =
        operator.json(&format!("/api/proxy/gateways/{gateway_id}")).await["recordsCount"].as_i64().unwrap();

    let mut expected_litres = vec![0_u64; METERS as usize];
    for i in 0..READINGS {
        let meter = i % METERS;
        let litres = u64::from(i % 7 + 1);
        expected_litres[meter as usize] += litres;
        uplink.send("reading", json!({"meter": address(0xC0, meter + 1), "record": litres, "unit": "L"})).await;
        if i == READINGS / 4 {
            cluster.kill("telemetry-ingest-1");
        }
        if i == READINGS / 2 {
            cluster.start_process("telemetry-ingest-1");
        }
    }
    uplink.acked(usize::try_from(READINGS).unwrap()).await;
    cluster.wait_ready("telemetry-ingest-1").await;

    let expected_records = records_before + i64::from(READINGS);
    eventually("every reading counted on the gateway", 240, || async {
        let gateway = operator.json(&format!("/api/proxy/gateways/{gateway_id}")).await;
        (gateway["recordsCount"].as_i64() >= Some(expected_records)).then_some(())
    })
    .await;
    // Give a duplicate the time to show up, then check nothing was counted twice.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let gateway: Value = operator.json(&format!("/api/proxy/gateways/{gateway_id}")).await;
    assert_eq!(gateway["recordsCount"], expected_records, "{gateway}");
    for (id, litres) in meters.iter().zip(&expected_litres) {
        let meter = operator.json(&format!("/api/proxy/wmeters/{id}")).await;
        assert_eq!(meter["totalConsumption"].as_f64(), Some(*litres as f64), "{meter}");
    }
}
