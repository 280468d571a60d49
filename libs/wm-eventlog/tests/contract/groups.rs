//! Members of one group split the partitions, and take over the partitions
//! of a member that leaves.

use std::collections::BTreeSet;

use tokio::time::Instant;
use wm_eventlog::{Consumer, Record, TopicPartition};

use crate::harness::{Harness, WAIT, bounded, group, payloads, records};

crate::contract!(members_split_partitions, a_member_given_no_partition_is_assigned);

async fn members_split_partitions(h: Harness) {
    let topic = h.topic("split").await;
    let group = group("split");
    let all: BTreeSet<TopicPartition> = (0..h.partitions).map(|p| TopicPartition::new(&topic, p)).collect();

    let mut a = h.subscribe(&group, &topic).await;
    let mut b = h.subscribe(&group, &topic).await;
    let early = settle(&mut [a.as_mut(), b.as_mut()], |[pa, pb]| {
        !pa.is_empty() && !pb.is_empty() && pa.is_disjoint(pb) && pa.union(pb).eq(all.iter())
    })
    .await;
    assert!(early.iter().all(Vec::is_empty), "nothing was appended yet");

    // Keys on every partition, so both members must receive some.
    let mut sent = records(&topic, "s", 48, 16);
    sent.extend(
        crate::harness::marker_keys(h.partitions)
            .into_iter()
            .map(|k| wm_eventlog::OutgoingRecord::new(&topic, k, b"s-marker".to_vec())),
    );
    h.append_all(sent.clone()).await;
    let (ga, gb) = consume_together(a.as_mut(), b.as_mut(), sent.len()).await;
    let (owned_a, owned_b) = (set(a.assignment()), set(b.assignment()));
    assert!(!ga.is_empty() && !gb.is_empty(), "both members receive records: {} / {}", ga.len(), gb.len());
    assert!(ga.iter().all(|r| owned_a.contains(&r.topic_partition())), "a got only its partitions");
    assert!(gb.iter().all(|r| owned_b.contains(&r.topic_partition())), "b got only its partitions");
    assert_eq!(payloads(ga.iter().chain(&gb)), payloads_of(&sent), "together they get everything, once");

    // b leaves; a takes over every partition and gets only what is new.
    drop(b);
    settle(&mut [a.as_mut()], |[pa]| pa.iter().eq(all.iter())).await;
    let more = records(&topic, "after", 16, 16);
    h.append_all(more.clone()).await;
    let got = crate::harness::poll_count(a.as_mut(), "records after b left", more.len()).await;
    assert_eq!(payloads(&got), payloads_of(&more));
}

/// Polls every consumer (without committing) until their assignments
/// satisfy `done`, and returns what each received meanwhile.
async fn settle<const N: usize>(
    consumers: &mut [&mut dyn Consumer; N],
    mut done: impl FnMut(&[BTreeSet<TopicPartition>; N]) -> bool,
) -> Vec<Vec<Record>> {
    let deadline = Instant::now() + WAIT;
    let mut received = vec![Vec::new(); N];
    loop {
        let assignments: [BTreeSet<TopicPartition>; N] = std::array::from_fn(|i| set(consumers[i].assignment()));
        if done(&assignments) {
            return received;
        }
        assert!(Instant::now() < deadline, "assignments did not settle in {WAIT:?}: {assignments:?}");
        let polls = consumers.iter_mut().map(|c| c.poll(100, std::time::Duration::from_millis(100)));
        for (i, polled) in futures::future::join_all(polls).await.into_iter().enumerate() {
            received[i].extend(polled.expect("poll"));
        }
    }
}

/// A member counts as assigned once its group gave it its share, even none
/// (more members than partitions): readiness waits for that, not for
/// partitions.
async fn a_member_given_no_partition_is_assigned(h: Harness) {
    let topic = h.topic("share").await;
    let group = group("share");
    let mut members = Vec::new();
    for _ in 0..=h.partitions {
        members.push(h.subscribe(&group, &topic).await);
    }
    let kafka = h.log.kind() == "kafka";
    assert_eq!(members[0].assigned(), !kafka, "a Kafka member joins while it polls; an embedded one at once");
    let partitions = usize::try_from(h.partitions).unwrap();
    let deadline = Instant::now() + WAIT;
    loop {
        let owned: Vec<BTreeSet<TopicPartition>> = members.iter().map(|m| set(m.assignment())).collect();
        let shared = owned.iter().map(BTreeSet::len).sum::<usize>() == partitions
            && owned.iter().flatten().collect::<BTreeSet<_>>().len() == partitions;
        // Each member takes its share in its own poll: the others may hold
        // every partition a moment before the idle one has heard it gets none.
        let assigned: Vec<bool> = members.iter().map(|m| m.assigned()).collect();
        let idle = owned.iter().position(BTreeSet::is_empty);
        if shared && idle.is_some() && assigned.iter().all(|a| *a) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "in {WAIT:?}, the partitions were not shared out with a member left idle, or a member was not \
             assigned: {owned:?}, assigned {assigned:?}"
        );
        let polls = members.iter_mut().map(|m| m.poll(10, std::time::Duration::from_millis(100)));
        for polled in futures::future::join_all(polls).await {
            polled.expect("poll");
        }
    }
}

/// Polls both members at once, committing as they go, until `n` records.
async fn consume_together(a: &mut dyn Consumer, b: &mut dyn Consumer, n: usize) -> (Vec<Record>, Vec<Record>) {
    let deadline = Instant::now() + WAIT;
    let (mut ga, mut gb) = (Vec::new(), Vec::new());
    while ga.len() + gb.len() < n {
        assert!(Instant::now() < deadline, "only {} of {n} records in {WAIT:?}", ga.len() + gb.len());
        let timeout = std::time::Duration::from_millis(200);
        let (ra, rb) = tokio::join!(a.poll(100, timeout), b.poll(100, timeout));
        let (ra, rb) = (ra.expect("poll a"), rb.expect("poll b"));
        bounded("commit a", a.commit(&ra)).await.expect("commit a");
        bounded("commit b", b.commit(&rb)).await.expect("commit b");
        ga.extend(ra);
        gb.extend(rb);
    }
    (ga, gb)
}

fn set(assignment: Vec<TopicPartition>) -> BTreeSet<TopicPartition> {
    assignment.into_iter().collect()
}

fn payloads_of(records: &[wm_eventlog::OutgoingRecord]) -> Vec<String> {
    let mut out: Vec<String> = records.iter().map(|r| String::from_utf8_lossy(&r.payload).into_owned()).collect();
    out.sort();
    out
}
