//! Replay reads everything from offset 0, in per-key order, and leaves
//! every group's offsets where they were.

use wm_eventlog::{Consumer, Record};

use crate::harness::{
    Harness, WAIT, bounded, by_key, expected_by_key, group, is_marker, payloads, poll_count, poll_past_markers, records,
};

crate::contract!(replay_reads_everything_and_moves_no_offsets);

async fn replay_reads_everything_and_moves_no_offsets(h: Harness) {
    let topic = h.topic("replay").await;
    let group = group("replay");
    let old = records(&topic, "old", 40, 8);
    let new = records(&topic, "new", 24, 8);

    // The group has processed `old`, and polled but not processed `new`.
    h.append_all(old.clone()).await;
    let mut member = h.subscribe(&group, &topic).await;
    let polled = poll_count(member.as_mut(), "old records", old.len()).await;
    bounded("commit", member.commit(&polled)).await.expect("commit");
    h.append_all(new.clone()).await;
    poll_count(member.as_mut(), "new records", new.len()).await;
    drop(member);

    let all: Vec<_> = old.iter().chain(&new).cloned().collect();
    for round in 1..=2 {
        let mut replay = bounded("replay", h.log.replay(&[&topic])).await.expect("replay");
        let got = replay_to_end(replay.as_mut()).await;
        assert_eq!(got.len(), all.len(), "round {round}: every record once");
        assert_eq!(by_key(&got), expected_by_key(&all), "round {round}: per-key order");
        bounded("commit on a replay", replay.commit(&got)).await.expect("commit on a replay is a no-op");
    }

    h.append_markers(&topic).await;
    let mut member = h.subscribe(&group, &topic).await;
    let got = poll_past_markers(member.as_mut(), "group after the replays", h.partitions).await;
    let redelivered: Vec<&Record> = got.iter().filter(|r| !is_marker(r)).collect();
    let expected: Vec<String> = new.iter().map(|r| String::from_utf8_lossy(&r.payload).into_owned()).collect();
    let mut expected_sorted = expected.clone();
    expected_sorted.sort();
    assert_eq!(payloads(redelivered), expected_sorted, "the group resumes where it committed");
}

/// Polls a replay until it reports it has caught up.
async fn replay_to_end(replay: &mut dyn Consumer) -> Vec<Record> {
    let deadline = tokio::time::Instant::now() + WAIT;
    let mut got = Vec::new();
    while !replay.caught_up() {
        assert!(tokio::time::Instant::now() < deadline, "replay not caught up after {WAIT:?}: {} records", got.len());
        got.extend(replay.poll(100, std::time::Duration::from_millis(200)).await.expect("poll"));
    }
    got
}
