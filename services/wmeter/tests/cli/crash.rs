//! `wmeter serve` killed with SIGKILL in the middle of a 50,000-message
//! ingest, then started again: every message the embedded broker
//! acknowledged is projected exactly once. The gateway here behaves as the
//! MQTT contract asks of one: what was not acknowledged, it sends again.

use std::{process::Command, time::Duration};

use crate::{
    gateway::{self, Acked, METERS},
    wait,
};

const MESSAGES: usize = 50_000;
const KILL_AFTER: usize = 20_000;

#[test]
fn a_killed_server_projects_every_acknowledged_message_exactly_once() {
    let dir = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (pool, uplinks) = gateway::seed(dir.path(), &runtime);
    let port = wm_test_support::ports::for_server();

    let mut server = gateway::start(dir.path(), port).child;
    let acked = Acked::new(MESSAGES);
    let gateway = runtime.spawn(gateway::publish_all(port, uplinks.clone(), acked.clone()));
    let waited = std::time::Instant::now();
    while acked.count() < KILL_AFTER {
        assert!(waited.elapsed() < Duration::from_secs(300), "{} acknowledged", acked.count());
        std::thread::sleep(Duration::from_millis(20));
    }
    server.kill().unwrap(); // SIGKILL
    server.wait().unwrap();
    let before_kill = acked.flags();
    let acked_before_kill = before_kill.iter().filter(|a| **a).count();
    assert!(acked_before_kill < MESSAGES, "killed in the middle of the ingest");

    let mut server = gateway::start(dir.path(), port).child;
    runtime.block_on(async { tokio::time::timeout(Duration::from_secs(600), gateway).await }).unwrap().unwrap();
    let rows = runtime.block_on(gateway::projected(&pool, &uplinks, MESSAGES));

    let mut litres = vec![0_i64; METERS];
    for i in 0..MESSAGES {
        let key = (uplinks.meters[i % METERS].clone(), uplinks.at(i).timestamp_micros());
        let found = rows.readings.get(&key).map_or(&[][..], Vec::as_slice);
        let when = if before_kill[i] { "acknowledged before the kill" } else { "acknowledged after it" };
        assert_eq!(found, [1_000 * (1 + i as i64 % 7)], "message {} ({when}) is projected once", i + 1);
        litres[i % METERS] += 1 + i as i64 % 7;
    }
    assert_eq!(rows.readings.values().map(Vec::len).sum::<usize>(), MESSAGES, "no other reading");
    assert_eq!(rows.records_count, MESSAGES as i64, "the gateway counted each reading once");
    for (ble, consumption) in uplinks.meters.iter().zip(&litres) {
        assert_eq!(rows.consumption_ml[ble], consumption * 1_000, "meter {ble}'s total");
    }

    Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap();
    wait(&mut server, Duration::from_secs(30)).expect("stops on SIGTERM");
}
