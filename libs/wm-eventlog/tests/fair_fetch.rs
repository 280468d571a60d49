//! The embedded log's polls share a batch between the partitions that hold
//! records: a backlog on one never holds back the others, and a lone
//! backlog still fills the batch.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking

use std::{collections::BTreeMap, time::Duration};

use wm_eventlog::{
    ConsumerOptions, EventLog, OutgoingRecord,
    embedded::{EmbeddedLog, EmbeddedSettings},
    partition_for,
};
use wm_test_support::TestDb;

const BUSY: &str = "wmeter.test.busy.v1";
const QUIET: &str = "wmeter.test.quiet.v1";
const PARTITIONS: i32 = 8;

async fn log() -> (TestDb, EmbeddedLog) {
    let db = TestDb::sqlite().await;
    let log = EmbeddedLog::open(db.db(), EmbeddedSettings { partitions: PARTITIONS }).await.unwrap();
    log.ensure_topics(&[QUIET, BUSY]).await.unwrap();
    (db, log)
}

/// `n` records on `BUSY` whose keys all fall in `partitions`.
async fn append(log: &EmbeddedLog, n: usize, partitions: &[i32]) {
    let records = (0..)
        .map(|i| format!("key-{i}"))
        .filter(|key| partitions.contains(&partition_for(key, PARTITIONS)))
        .take(n)
        .map(|key| OutgoingRecord::new(BUSY, &key, key.clone().into_bytes()))
        .collect();
    log.append_batch(records).await.unwrap();
}

fn per_partition(records: &[wm_eventlog::Record]) -> BTreeMap<i32, usize> {
    let mut counts = BTreeMap::new();
    for record in records {
        *counts.entry(record.partition).or_insert(0) += 1;
    }
    counts
}

#[tokio::test]
async fn a_poll_takes_a_share_of_every_partition_with_a_backlog() {
    let (_db, log) = log().await;
    let all: Vec<i32> = (0..PARTITIONS).collect();
    append(&log, 4_000, &all).await;
    let mut consumer = log.subscribe("fair", &[QUIET, BUSY], ConsumerOptions::default()).await.unwrap();
    for poll in 0..3 {
        let batch = consumer.poll(500, Duration::from_secs(1)).await.unwrap();
        assert_eq!(batch.len(), 500, "poll {poll}");
        let counts = per_partition(&batch);
        // 16 partitions may hold records at first: a share is at least 500 / 16.
        assert_eq!(counts.len(), all.len(), "poll {poll}: every partition of the backlog is read: {counts:?}");
        assert!(counts.values().all(|n| *n >= 500 / 16), "poll {poll}: {counts:?}");
        consumer.commit(&batch).await.unwrap();
    }
}

#[tokio::test]
async fn a_lone_backlog_still_fills_the_batch_in_order() {
    let (_db, log) = log().await;
    append(&log, 1_200, &[3]).await;
    let mut consumer = log.subscribe("lone", &[QUIET, BUSY], ConsumerOptions::default()).await.unwrap();
    let mut offsets = Vec::new();
    for expected in [500, 500, 200] {
        let batch = consumer.poll(500, Duration::from_secs(1)).await.unwrap();
        assert_eq!(batch.len(), expected);
        assert_eq!(per_partition(&batch).keys().copied().collect::<Vec<_>>(), [3]);
        offsets.extend(batch.iter().map(|r| r.offset));
    }
    assert_eq!(offsets, (0..1_200).collect::<Vec<i64>>(), "each offset once, in order");
}
