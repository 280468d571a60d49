//! The embedded log's expiry: records past the cut-off go, except what a
//! running group has still to read and each partition's last record, and
//! offsets carry on where they were.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking

use std::time::Duration;

use chrono::Utc;
use wm_eventlog::{
    ConsumerOptions, EventLog, OutgoingRecord,
    embedded::{EmbeddedLog, EmbeddedSettings},
};
use wm_test_support::TestDb;

const TOPIC: &str = "wmeter.test.retention.v1";

async fn append(log: &EmbeddedLog, from: u32, to: u32) {
    let records = (from..to).map(|n| OutgoingRecord::new(TOPIC, "k", format!("r{n}").into_bytes())).collect();
    log.append_batch(records).await.unwrap();
}

/// The offsets the log holds now, read by a replay.
async fn offsets(log: &EmbeddedLog) -> Vec<i64> {
    let mut replay = log.replay(&[TOPIC]).await.unwrap();
    let mut offsets = Vec::new();
    while !replay.caught_up() {
        offsets.extend(replay.poll(100, Duration::from_secs(1)).await.unwrap().iter().map(|r| r.offset));
    }
    offsets
}

async fn tick() {
    tokio::time::sleep(Duration::from_millis(20)).await;
}

#[tokio::test]
async fn expiry_spares_what_a_running_group_has_to_read_and_each_partitions_last_record() {
    let db = TestDb::sqlite().await;
    let log = EmbeddedLog::open(db.db(), EmbeddedSettings { partitions: 1 }).await.unwrap();
    append(&log, 0, 10).await;
    assert!(!log.expired(TOPIC).await.unwrap(), "nothing expired yet");
    tick().await;
    let cut_off = Utc::now();
    tick().await;

    // A running group has applied the first six records since the cut-off.
    let mut running = log.subscribe("running", &[TOPIC], ConsumerOptions::default()).await.unwrap();
    let applied = running.poll(6, Duration::from_secs(1)).await.unwrap();
    assert_eq!(applied.len(), 6);
    running.commit(&applied).await.unwrap();

    assert_eq!(log.expire(TOPIC, cut_off).await.unwrap(), 6);
    assert_eq!(offsets(&log).await, [6, 7, 8, 9], "what the group has not applied stays");
    assert!(log.expired(TOPIC).await.unwrap(), "a replay would start at offset 6");
    let rest = running.poll(10, Duration::from_secs(1)).await.unwrap();
    assert_eq!(rest.iter().map(|r| r.offset).collect::<Vec<_>>(), [6, 7, 8, 9]);
    running.commit(&rest).await.unwrap();

    assert_eq!(log.expire(TOPIC, cut_off).await.unwrap(), 3);
    assert_eq!(offsets(&log).await, [9], "the last record stays: the next append continues after it");
    append(&log, 10, 12).await;
    assert_eq!(offsets(&log).await, [9, 10, 11], "offsets are never reused");
    let next = running.poll(10, Duration::from_secs(1)).await.unwrap();
    assert_eq!(next.iter().map(|r| r.offset).collect::<Vec<_>>(), [10, 11], "the group reads on, losing nothing");

    // A group silent since before a cut-off protects nothing, as on Kafka.
    let later = Utc::now() + chrono::TimeDelta::hours(1);
    assert_eq!(log.expire(TOPIC, later).await.unwrap(), 2);
    assert_eq!(offsets(&log).await, [11]);
    let mut newcomer = log.subscribe("newcomer", &[TOPIC], ConsumerOptions::default()).await.unwrap();
    let first = newcomer.poll(10, Duration::from_secs(1)).await.unwrap();
    assert_eq!(first.iter().map(|r| r.offset).collect::<Vec<_>>(), [11], "a new group starts at the oldest kept");

    assert_eq!(log.expire("wmeter.test.absent.v1", later).await.unwrap(), 0, "a topic never written to");
    assert!(!log.expired("wmeter.test.absent.v1").await.unwrap());
}
