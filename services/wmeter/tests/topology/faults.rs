//! Server outages under the distributed deployment, each 30 s long: the
//! connections to PostgreSQL, or to the Kafka-protocol broker, are cut at a
//! TCP proxy (every open connection dropped, every new one refused) while
//! gateways keep sending; then restored. Readings sent before, during and
//! after are checked one by one: each projected exactly once.

use std::{
    net::SocketAddr,
    time::{Duration, Instant},
};

use serde_json::{Value, json};
use wm_test_support::{
    cluster::{Cluster, Via},
    proxy::Proxy,
    servers,
};

use crate::client::{Operator, Uplink, address, eventually, until_known};

const OUTAGE: Duration = Duration::from_secs(30);
const METERS: u32 = 5;
/// Readings per phase: before, during and after the outage.
const PER_PHASE: u32 = 300;

async fn start_via(via: Via) -> Option<Cluster> {
    Cluster::start_via(env!("CARGO_BIN_EXE_wmeter").as_ref(), via).await
}

/// A gateway and its meters, registered and known to ingest.
struct Fleet {
    operator: Operator,
    uplink: Uplink,
    gateway_id: String,
    meters: Vec<String>,
    litres: Vec<u64>,
    sent: u32,
    records_before: i64,
}

impl Fleet {
    async fn register(cluster: &Cluster) -> Fleet {
        let operator = Operator::create(cluster, "flo").await;
        let mut meters = Vec::new();
        for n in 1..=METERS {
            meters.push(operator.register_meter(n).await);
        }
        let gateway_id = operator.register_gateway(1).await;
        let mut uplink = Uplink::connect(cluster, "TG00000001").await;
        until_known(&operator, &mut uplink, &gateway_id).await;
        let records_before =
            operator.json(&format!("/api/proxy/gateways/{gateway_id}")).await["recordsCount"].as_i64().unwrap();
        Fleet { operator, uplink, gateway_id, meters, litres: vec![0; METERS as usize], sent: 0, records_before }
    }

    /// Sends `n` more readings, spread over the meters.
    async fn send(&mut self, n: u32) {
        for _ in 0..n {
            let meter = self.sent % METERS;
            let litres = u64::from(self.sent % 7 + 1);
            self.litres[meter as usize] += litres;
            let reading = json!({"meter": address(0xC0, meter + 1), "record": litres, "unit": "L"});
            self.uplink.send("reading", reading).await;
            self.sent += 1;
        }
    }

    /// Every reading sent is counted once on the gateway, and each meter's
    /// total is the sum of its own.
    async fn assert_each_projected_once(&mut self) {
        self.uplink.acked(self.sent as usize).await;
        let expected = self.records_before + i64::from(self.sent);
        let gateway_path = format!("/api/proxy/gateways/{}", self.gateway_id);
        eventually("every reading counted on the gateway", 240, || async {
            let gateway = self.operator.json(&gateway_path).await;
            (gateway["recordsCount"].as_i64() >= Some(expected)).then_some(())
        })
        .await;
        // Give a duplicate the time to show up, then check nothing counted twice.
        tokio::time::sleep(Duration::from_secs(3)).await;
        let gateway: Value = self.operator.json(&gateway_path).await;
        assert_eq!(gateway["recordsCount"], expected, "{gateway}");
        for (id, litres) in self.meters.iter().zip(&self.litres) {
            let meter = self.operator.json(&format!("/api/proxy/wmeters/{id}")).await;
            assert_eq!(meter["totalConsumption"].as_f64(), Some(*litres as f64), "{meter}");
        }
    }
}

/// `host:port` of a `postgres://user@host:port/db` URL.
fn server_of(url: &str) -> SocketAddr {
    let authority = url.split_once('@').map_or(url, |(_, rest)| rest);
    let authority = authority.split('/').next().unwrap_or(authority);
    authority.parse().unwrap_or_else(|e| panic!("{authority}: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)] // the proxy runs while the CLI blocks
async fn a_database_outage_answers_503_and_loses_nothing() {
    let Some(pg) = servers::postgres_url() else { return };
    let proxy = Proxy::start(server_of(&pg)).await;
    let Some(cluster) = start_via(Via { postgres: Some(proxy.addr), ..Via::default() }).await else { return };
    let mut fleet = Fleet::register(&cluster).await;
    fleet.send(PER_PHASE).await;

    proxy.cut();
    let down_since = Instant::now();
    let client = wm_http::client::builder().timeout(Duration::from_secs(15)).build().unwrap();
    let mut answers = 0;
    while down_since.elapsed() < OUTAGE {
        fleet.send(PER_PHASE / 10).await;
        for path in ["/api/proxy/gateways/count", "/api/proxy/wmeters?max=5", "/api/proxy/gateways/gateway-activity"] {
            let asked = Instant::now();
            let response = fleet.operator.get_with(&client, path).await.unwrap_or_else(|e| panic!("{path}: {e}"));
            let status = response.status();
            let body: Value = response.json().await.unwrap_or(Value::Null);
            let failures = || {
                let log = cluster.log("device-registry") + &cluster.log("telemetry-ingest-1");
                log.lines().filter(|l| l.contains("request failed")).take(5).collect::<Vec<_>>().join("\n")
            };
            assert_eq!(status, 503, "{path} while the database is down: {body}\n{}", failures());
            assert!(body["code"].is_string(), "{path}: {body}");
            assert!(asked.elapsed() < Duration::from_secs(10), "{path} took {:?}", asked.elapsed());
            answers += 1;
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    assert!(answers >= 6, "the API was asked in several rounds of the outage, not once");
    proxy.restore();
    fleet.send(PER_PHASE).await;
    fleet.assert_each_projected_once().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)] // the proxy runs while the CLI blocks
async fn a_broker_outage_loses_nothing() {
    let port = wm_test_support::ports::for_server();
    let proxy = Proxy::start(SocketAddr::from(([127, 0, 0, 1], port))).await;
    let Some(_broker) = servers::OwnBroker::start(port, proxy.addr).await else { return };
    let via = Via { brokers: Some(proxy.addr.to_string()), ..Via::default() };
    let Some(cluster) = start_via(via).await else { return };
    let mut fleet = Fleet::register(&cluster).await;
    fleet.send(PER_PHASE).await;

    proxy.cut();
    let down_since = Instant::now();
    while down_since.elapsed() < OUTAGE {
        fleet.send(PER_PHASE / 10).await;
        let response = fleet.operator.get("/api/proxy/gateways/count").await;
        assert_eq!(response.status(), 200, "the registry serves its tables without the broker");
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    proxy.restore();
    fleet.send(PER_PHASE).await;
    fleet.assert_each_projected_once().await;
}
