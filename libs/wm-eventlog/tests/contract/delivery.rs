//! At-least-once: offsets move only on commit, and whatever a crashed
//! (dropped) member did not commit is delivered again to the group.

use std::{collections::BTreeMap, time::Duration};

use wm_eventlog::Record;

use crate::harness::{
    Harness, bounded, by_key, expected_by_key, group, is_marker, payloads, poll_count, poll_past_markers, records,
};

crate::contract!(redelivered_after_crash, committed_records_are_not_redelivered, cancelled_polls_lose_nothing);

async fn redelivered_after_crash(h: Harness) {
    let topic = h.topic("crash").await;
    h.append_all(records(&topic, "c", 40, 10)).await;
    let group = group("crash");

    let mut first = h.subscribe(&group, &topic).await;
    let before = poll_count(first.as_mut(), "first member", 40).await;
    drop(first); // crashes: nothing committed
    h.closed().await;

    let mut second = h.subscribe(&group, &topic).await;
    let after = poll_count(second.as_mut(), "member after the crash", 40).await;
    assert_eq!(payloads(&after), payloads(&before), "every uncommitted record comes again");
}

async fn committed_records_are_not_redelivered(h: Harness) {
    let topic = h.topic("commit").await;
    h.append_all(records(&topic, "m", 60, 12)).await;
    let group = group("commit");

    let mut first = h.subscribe(&group, &topic).await;
    let polled = poll_count(first.as_mut(), "first member", 60).await;
    // Commit-up-to: only the first half of each partition is processed.
    let (done, pending) = split_each_partition(&polled);
    bounded("commit", first.commit(&done)).await.expect("commit");
    drop(first);
    h.closed().await;

    h.append_markers(&topic).await;
    let mut second = h.subscribe(&group, &topic).await;
    let got = poll_past_markers(second.as_mut(), "member after the commit", h.partitions).await;
    let redelivered: Vec<&Record> = got.iter().filter(|r| !is_marker(r)).collect();
    assert_eq!(payloads(redelivered), payloads(&pending), "exactly the uncommitted records come again");
    assert!(!done.is_empty() && !pending.is_empty());
}

async fn cancelled_polls_lose_nothing(h: Harness) {
    let topic = h.topic("cancel").await;
    let mut consumer = h.subscribe(&group("cancel"), &topic).await;
    let mut sent = Vec::new();

    // Polls cut short at every stage, each spanning several partitions; the
    // ones that finish keep their records. Appends keep feeding them.
    let mut got = Vec::new();
    for i in 0..400_u64 {
        if i % 8 == 0 {
            let more = records(&topic, &format!("y{i}"), 16, 16);
            h.append_all(more.clone()).await;
            sent.extend(more);
        }
        let cut = Duration::from_micros(10 * (i % 80));
        if let Ok(polled) = tokio::time::timeout(cut, consumer.poll(1000, Duration::from_secs(1))).await {
            got.extend(polled.expect("poll"));
        }
    }
    let missing = sent.len().saturating_sub(got.len());
    got.extend(poll_count(consumer.as_mut(), "the rest", missing).await);
    assert_eq!(got.len(), sent.len(), "nothing duplicated");
    assert_eq!(by_key(&got), expected_by_key(&sent), "nothing skipped, per-key order kept");
}

/// Per partition, the records up to the middle offset and those after.
fn split_each_partition(records: &[Record]) -> (Vec<Record>, Vec<Record>) {
    let mut per_partition: BTreeMap<i32, Vec<&Record>> = BTreeMap::new();
    for r in records {
        per_partition.entry(r.partition).or_default().push(r);
    }
    let (mut done, mut pending) = (Vec::new(), Vec::new());
    for list in per_partition.values() {
        let half = list.len().div_ceil(2);
        done.extend(list[..half].iter().map(|r| (*r).clone()));
        pending.extend(list[half..].iter().map(|r| (*r).clone()));
    }
    (done, pending)
}
