//! The rows staged events wait in, on both databases: a staging is one
//! row whose events reach the log in order; a row this build cannot read
//! goes to the log as it was staged, or to the dead letters when it cannot
//! be split into records.

use wm_eventlog::{
    OutgoingRecord,
    outbox::{
        Relay,
        staged::{self, EVENTS_PER_ROW},
    },
};
use wm_proto::{Envelope, Payload, topics};
use wm_storage::{bulk, query::Bind};
use wm_test_support::TestDb;

use super::{batch_rows, deleted, waiting};
use crate::harness::{Harness, group, poll_count};

/// A staging is one row, however many events it holds up to
/// [`EVENTS_PER_ROW`], and its events reach the log in the order staged.
async fn a_staging_is_one_row_and_its_events_reach_the_log_in_order(db: TestDb, harness: Harness) {
    let relay = Relay::new(db.db().clone(), harness.log.clone(), "test");
    let events: Vec<Envelope> = (0..EVENTS_PER_ROW + 3).map(|i| deleted(&format!("{i:024x}"))).collect();
    let mut tx = db.db().begin_write().await.unwrap();
    relay.stage(&mut tx, Some("registry"), &events[..2]).await.unwrap();
    relay.stage(&mut tx, Some("registry"), &events[2..]).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(batch_rows(&db).await, 3, "a row per staging, the second split once");
    assert_eq!(waiting(&db).await, i64::try_from(events.len()).unwrap());

    assert_eq!(relay.flush().await.unwrap(), events.len());
    assert_eq!(waiting(&db).await, 0);
    let mut consumer = harness.subscribe(&group("outbox"), topics::REGISTRY).await;
    let records = poll_count(consumer.as_mut(), "every event", events.len()).await;
    let published: Vec<String> = records.iter().map(|r| Envelope::from_bytes(&r.payload).unwrap().device_id).collect();
    let ids: Vec<String> = events.into_iter().map(|e| e.device_id).collect();
    assert_eq!(published, ids, "one key, one partition: in the order staged");
}

/// Rows of every kind: a staging of this build; a batch staged by a newer
/// build (a field of the batch, and one of its envelope, that this build
/// does not know); an envelope no build can read, in a batch; a batch no
/// build can read; and two rows of `event_outbox`, as older builds staged
/// them, with a topic and from before rows held it. The relay publishes
/// each event as staged: the newer envelope keeps its field, the unreadable
/// one does not stop the relay, the oldest row is read to find its topic,
/// and the unreadable batch goes whole to the dead letters.
async fn a_row_this_build_cannot_read_goes_to_the_log_as_staged(db: TestDb, harness: Harness) {
    let relay = Relay::new(db.db().clone(), harness.log.clone(), "test");
    let newer = [deleted("bbbbbbbbbbbbbbbbbbbbbbbb").to_bytes(), vec![0xb8, 0x3e, 0x2a]].concat();
    assert!(Envelope::from_bytes(&newer).is_ok(), "field 999 is one this build skips when it reads");
    let unreadable = b"\xff\xff not an envelope".to_vec();
    Envelope::from_bytes(&unreadable).expect_err("no build reads it");
    let registry = |key: &str, payload: &[u8]| OutgoingRecord::new(topics::REGISTRY, key, payload);
    // Field 15 of the batch, a varint: a newer build's.
    let (newer_batch, _) = staged::encode(vec![registry("bbbbbbbbbbbbbbbbbbbbbbbb", &newer)]).remove(0);
    let newer_batch = [newer_batch, vec![0x78, 0x01]].concat();
    let (unreadable_inside, _) = staged::encode(vec![registry("cccccccccccccccccccccccc", &unreadable)]).remove(0);
    let not_a_batch = b"\xff\xff not a batch".to_vec();
    let mut tx = db.db().begin_write().await.unwrap();
    relay.stage(&mut tx, None, &[deleted("aaaaaaaaaaaaaaaaaaaaaaaa")]).await.unwrap();
    let now = i64::try_from(std::time::UNIX_EPOCH.elapsed().unwrap().as_millis()).unwrap();
    let mut rows = bulk::Rows::new(4);
    for bytes in [&newer_batch, &unreadable_inside, &not_a_batch] {
        rows.push(["test".into(), Bind::Bytes(bytes.clone()), Bind::Int(1), Bind::Int(now)]);
    }
    let head = "INSERT INTO event_outbox_batch (source, records, events, staged_at_ms)";
    bulk::execute(&mut tx, head, "", rows).await.unwrap();
    let mut rows = bulk::Rows::new(5);
    let older = deleted("dddddddddddddddddddddddd").to_bytes();
    let oldest = deleted("eeeeeeeeeeeeeeeeeeeeeeee").to_bytes();
    for (topic, key, bytes) in [
        (Bind::from(topics::REGISTRY), "dddddddddddddddddddddddd", &older),
        (Bind::NullText, "eeeeeeeeeeeeeeeeeeeeeeee", &oldest),
    ] {
        rows.push(["test".into(), topic, key.into(), Bind::Bytes(bytes.clone()), Bind::Int(now)]);
    }
    let head = "INSERT INTO event_outbox (source, topic, record_key, envelope, staged_at_ms)";
    bulk::execute(&mut tx, head, "", rows).await.unwrap();
    tx.commit().await.unwrap();

    assert_eq!(relay.flush().await.unwrap(), 6);
    assert_eq!(waiting(&db).await, 0);
    let mut consumer = harness.subscribe(&group("outbox"), topics::REGISTRY).await;
    let mut records = poll_count(consumer.as_mut(), "the five events", 5).await;
    records.sort_unstable_by(|a, b| a.key.cmp(&b.key));
    let keys: Vec<&str> = records.iter().map(|r| r.key.as_str()).collect();
    let ids = [
        "aaaaaaaaaaaaaaaaaaaaaaaa",
        "bbbbbbbbbbbbbbbbbbbbbbbb",
        "cccccccccccccccccccccccc",
        "dddddddddddddddddddddddd",
        "eeeeeeeeeeeeeeeeeeeeeeee",
    ];
    assert_eq!(keys, ids);
    assert_eq!(records[1].payload, newer, "the newer build's field is still there");
    assert_eq!(records[2].payload, unreadable);
    assert_eq!(records[3].payload, older, "an older build's row, published as staged");
    assert_eq!(records[4].payload, oldest, "a row staged before topics were, read to find its topic");
    let mut letters = harness.subscribe(&group("letters"), topics::DEAD_LETTERS).await;
    let letter = poll_count(letters.as_mut(), "the dead letter", 1).await.remove(0);
    let Some(Payload::DeadLetter(letter)) = Envelope::from_bytes(&letter.payload).unwrap().payload else {
        panic!("a dead letter")
    };
    assert_eq!(letter.raw_payload, not_a_batch, "the unreadable batch, kept whole");
    assert_eq!(letter.raw_topic, staged::BATCH_TABLE);
}

on_each_database!(
    a_staging_is_one_row_and_its_events_reach_the_log_in_order,
    a_row_this_build_cannot_read_goes_to_the_log_as_staged
);
