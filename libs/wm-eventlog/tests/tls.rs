//! The Kafka clients over TLS (`event_log.security.protocol = "ssl"`): they
//! reach a broker whose certificate chains to `ca_file`, and refuse one
//! that does not. The broker is Tansu behind a TLS-ending proxy
//! (`wm_test_support::tls`): Tansu 0.1.2's own TLS does not start.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking

use std::{net::SocketAddr, time::Duration};

use wm_eventlog::{
    EventLog, OutgoingRecord,
    kafka::{KafkaLog, KafkaSecurity, KafkaSettings},
};
use wm_test_support::{
    servers::{self, OwnBroker},
    tls::{TestPki, TlsProxy},
};

fn settings(broker: SocketAddr, ca_file: &std::path::Path) -> KafkaSettings {
    KafkaSettings {
        client_id: "wm-eventlog-tls-test".to_owned(),
        partitions: 1,
        replication_factor: 1,
        request_timeout_ms: 3_000,
        security: KafkaSecurity {
            protocol: "ssl".to_owned(),
            ca_file: ca_file.display().to_string(),
            ..KafkaSecurity::default()
        },
        ..KafkaSettings::with_brokers(broker.to_string())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clients_speak_tls_to_a_broker_they_verify_and_refuse_another() {
    if servers::tansu().is_none() {
        return;
    }
    let pki = TestPki::new();
    let port = wm_test_support::ports::for_server();
    let proxy = TlsProxy::start(&pki, SocketAddr::from(([127, 0, 0, 1], port))).await;
    let _broker = OwnBroker::start(port, proxy.addr).await.expect("tansu");

    let log = KafkaLog::connect(settings(proxy.addr, &pki.ca_file)).unwrap();
    tokio::time::timeout(Duration::from_secs(30), log.ready()).await.expect("in time").expect("ready over TLS");
    let topic = "wm-test.over-tls";
    log.ensure_topics(&[topic]).await.unwrap();
    log.append(OutgoingRecord::new(topic, "k", b"over TLS".to_vec())).await.unwrap();
    let mut replay = log.replay(&[topic]).await.unwrap();
    let mut read = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while read.is_empty() && tokio::time::Instant::now() < deadline {
        read = replay.poll(10, Duration::from_millis(500)).await.unwrap();
    }
    assert_eq!(read.first().map(|r| r.payload.as_slice()), Some(&b"over TLS"[..]));

    let stranger = TestPki::new();
    let distrusting = KafkaLog::connect(settings(proxy.addr, &stranger.ca_file)).unwrap();
    let ready = tokio::time::timeout(Duration::from_secs(20), distrusting.ready()).await;
    assert!(!matches!(ready, Ok(Ok(()))), "a broker whose certificate another CA signed is not trusted");
}
