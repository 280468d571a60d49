//! Records with the same key land on one partition, Kafka's, and are
//! consumed in the order they were appended.

use std::collections::BTreeMap;

use wm_eventlog::{OutgoingRecord, partition_for};

use crate::harness::{Harness, bounded, by_key, expected_by_key, group, poll_count};

crate::contract!(per_key_order);

async fn per_key_order(h: Harness) {
    let topic = h.topic("ordering").await;
    let sent: Vec<OutgoingRecord> = crate::harness::records(&topic, "o", 120, 12);
    let mut positions = Vec::new();
    for record in &sent {
        positions.push(bounded("append", h.log.append(record.clone())).await.expect("append"));
    }
    for (record, position) in sent.iter().zip(&positions) {
        assert_eq!(position.topic, topic);
        assert_eq!(position.partition, partition_for(&record.key, h.partitions), "key {}", record.key);
    }

    let mut consumer = h.subscribe(&group("ordering"), &topic).await;
    let got = poll_count(consumer.as_mut(), "all records", sent.len()).await;
    assert_eq!(got.len(), sent.len(), "nothing duplicated for a lone member that never crashed");
    assert_eq!(by_key(&got), expected_by_key(&sent), "per-key order");

    let mut last_offset: BTreeMap<i32, i64> = BTreeMap::new();
    for record in &got {
        assert_eq!(record.partition, partition_for(&record.key, h.partitions), "key {} moved", record.key);
        let previous = last_offset.insert(record.partition, record.offset);
        assert!(previous.is_none_or(|p| p < record.offset), "partition {} went backwards", record.partition);
        let position = sent.iter().position(|s| s.payload == record.payload).map(|i| &positions[i]);
        assert_eq!(position.map(|p| (p.partition, p.offset)), Some((record.partition, record.offset)));
        assert!(record.timestamp.timestamp() > 0);
    }
}
