//! Batched appends: positions in input order, consecutive offsets per
//! partition, and the same records a consumer reads back.

use std::collections::BTreeMap;

use wm_eventlog::partition_for;

use crate::harness::{Harness, bounded, group, poll_count, records};

crate::contract!(batch_append);

async fn batch_append(h: Harness) {
    let topic = h.topic("batch").await;
    assert!(bounded("empty batch", h.log.append_batch(Vec::new())).await.expect("empty batch").is_empty());

    let mut first = records(&topic, "b1", 150, 10);
    // An empty key is a key like any other (not a null key spread at random).
    first.push(wm_eventlog::OutgoingRecord::new(&topic, "", b"b1-empty-key".to_vec()));
    let second = records(&topic, "b2", 50, 10);
    let p1 = bounded("append batch", h.log.append_batch(first.clone())).await.expect("append batch");
    let p2 = bounded("append batch", h.log.append_batch(second.clone())).await.expect("append batch");
    let sent: Vec<_> = first.into_iter().chain(second).collect();
    let positions: Vec<_> = p1.into_iter().chain(p2).collect();
    assert_eq!(positions.len(), sent.len());

    let mut next: BTreeMap<i32, i64> = BTreeMap::new();
    for (record, position) in sent.iter().zip(&positions) {
        assert_eq!(position.partition, partition_for(&record.key, h.partitions));
        let expected = next.entry(position.partition).or_insert(position.offset);
        assert_eq!(position.offset, *expected, "offsets are consecutive per partition, in input order");
        *expected += 1;
    }

    let mut consumer = h.subscribe(&group("batch"), &topic).await;
    let got = poll_count(consumer.as_mut(), "the batches", sent.len()).await;
    assert_eq!(got.len(), sent.len());
    for record in &got {
        let i = positions.iter().position(|p| p.partition == record.partition && p.offset == record.offset);
        let i = i.unwrap_or_else(|| panic!("no position for {}@{}", record.partition, record.offset));
        assert_eq!((&record.key, &record.payload), (&sent[i].key, &sent[i].payload));
    }
}
