//! The rows staged events wait in, on both databases: a staging is one
//! row whose events reach the log in order; the running relay publishes
//! the older table first, and what was staged as it stops; a row this
//! build cannot read goes to the log as it was staged, or to the dead
//! letters when it cannot become its records.

use tokio_util::sync::CancellationToken;
use wm_eventlog::{
    OutgoingRecord,
    outbox::{
        Relay, RelayMetrics,
        staged::{self, EVENTS_PER_ROW},
    },
};
use wm_proto::{
    Envelope, Payload, topics,
    v1::{DeadLetter, DeadLetterReason},
};
use wm_storage::{Backend, bulk, query::Bind};
use wm_test_support::TestDb;

use super::{batch_rows, deleted, scraped, stage_as_older_builds, waiting};
use crate::harness::{Harness, group, poll_count};

/// A staging is one row, however many events it holds up to
/// [`EVENTS_PER_ROW`], and its events reach the log in the order staged,
/// round after round.
async fn a_staging_is_one_row_and_its_events_reach_the_log_in_order(db: TestDb, harness: Harness) {
    let relay = Relay::new(db.db().clone(), harness.log.clone(), "test");
    let events: Vec<Envelope> = (0..EVENTS_PER_ROW + 12).map(|i| deleted(&format!("{i:024x}"))).collect();
    let mut tx = db.db().begin_write().await.unwrap();
    relay.stage(&mut tx, Some("registry"), &events[..2]).await.unwrap();
    relay.stage(&mut tx, Some("registry"), &events[2..EVENTS_PER_ROW + 3]).await.unwrap();
    for event in &events[EVENTS_PER_ROW + 3..] {
        relay.stage(&mut tx, Some("registry"), std::slice::from_ref(event)).await.unwrap();
    }
    tx.commit().await.unwrap();
    assert_eq!(batch_rows(&db).await, 12, "a row per staging, the second split once");
    assert_eq!(waiting(&db).await, i64::try_from(events.len()).unwrap());

    assert_eq!(relay.flush().await.unwrap(), events.len());
    assert_eq!(waiting(&db).await, 0);
    let mut consumer = harness.subscribe(&group("outbox"), topics::REGISTRY).await;
    let records = poll_count(consumer.as_mut(), "every event", events.len()).await;
    let published: Vec<String> = records.iter().map(|r| Envelope::from_bytes(&r.payload).unwrap().device_id).collect();
    let ids: Vec<String> = events.into_iter().map(|e| e.device_id).collect();
    assert_eq!(published, ids, "one key, one partition: in the order staged");
}

/// What an older replica staged in `event_outbox` before a batch is
/// staged is published before the batch, by the running relay; and what is
/// staged as the relay stops is published before it returns.
async fn the_running_relay_publishes_the_older_table_first_and_flushes_as_it_stops(db: TestDb, harness: Harness) {
    let relay = Relay::new(db.db().clone(), harness.log.clone(), "test");
    let stop = CancellationToken::new();
    let running = tokio::spawn(relay.clone().run(stop.clone()));
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let older = (Some(topics::REGISTRY), "registry", deleted("aaaaaaaaaaaaaaaaaaaaaaaa").to_bytes());
    stage_as_older_builds(&db, "test", &[older], now_ms()).await;
    let mut tx = db.db().begin_write().await.unwrap();
    relay.stage(&mut tx, Some("registry"), &[deleted("bbbbbbbbbbbbbbbbbbbbbbbb")]).await.unwrap();
    tx.commit().await.unwrap();
    relay.wake();
    let mut consumer = harness.subscribe(&group("outbox"), topics::REGISTRY).await;
    let records = poll_count(consumer.as_mut(), "both events", 2).await;
    let published: Vec<String> = records.iter().map(|r| Envelope::from_bytes(&r.payload).unwrap().device_id).collect();
    assert_eq!(published, ["aaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbb"], "the older row first");

    // Staged unwoken, well within the relay's idle second, then stopped.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let mut tx = db.db().begin_write().await.unwrap();
    relay.stage(&mut tx, Some("registry"), &[deleted("cccccccccccccccccccccccc")]).await.unwrap();
    tx.commit().await.unwrap();
    stop.cancel();
    running.await.unwrap();
    assert_eq!(waiting(&db).await, 0, "the stopping relay published it");
    let records = poll_count(consumer.as_mut(), "the last event", 1).await;
    assert_eq!(Envelope::from_bytes(&records[0].payload).unwrap().device_id, "cccccccccccccccccccccccc");
}

/// A backlog of `event_outbox` longer than a round is published whole
/// before a batch staged after it.
async fn a_backlog_of_the_older_table_is_published_before_any_batch(db: TestDb, harness: Harness) {
    let relay = Relay::new(db.db().clone(), harness.log.clone(), "test");
    let older: Vec<Envelope> = (0..501).map(|i| deleted(&format!("{i:024x}"))).collect();
    let rows: Vec<_> = older.iter().map(|e| (Some(topics::REGISTRY), "registry", e.to_bytes())).collect();
    stage_as_older_builds(&db, "test", &rows, now_ms()).await;
    let mut tx = db.db().begin_write().await.unwrap();
    relay.stage(&mut tx, Some("registry"), &[deleted("bbbbbbbbbbbbbbbbbbbbbbbb")]).await.unwrap();
    tx.commit().await.unwrap();

    assert_eq!(relay.flush().await.unwrap(), 502);
    let mut consumer = harness.subscribe(&group("outbox"), topics::REGISTRY).await;
    let records = poll_count(consumer.as_mut(), "every event", 502).await;
    let published: Vec<String> = records.iter().map(|r| Envelope::from_bytes(&r.payload).unwrap().device_id).collect();
    let mut ids: Vec<String> = older.into_iter().map(|e| e.device_id).collect();
    ids.push("bbbbbbbbbbbbbbbbbbbbbbbb".into());
    assert_eq!(published, ids, "the older table's two rounds, then the batch");
}

/// Rows of every kind: a staging of this build; a batch staged by a newer
/// build (a field of the batch, and one of its envelope, that this build
/// does not know); an envelope no build can read, in a batch; a batch no
/// build can read; and three rows of `event_outbox`, as older builds
/// staged them: with a topic, from before rows held it, and one of those
/// whose envelope no build can read. The relay publishes each event as
/// staged: the newer envelope keeps its field, the unreadable one does not
/// stop the relay, the oldest row is read to find its topic; and the two
/// rows that cannot become their events go whole to the dead letters,
/// counted.
async fn a_row_this_build_cannot_read_goes_to_the_log_as_staged(db: TestDb, harness: Harness) {
    // The counts are kept per process and source: one source per database.
    let source = match db.db().backend() {
        Backend::Postgres => "unreadable-postgres",
        Backend::Sqlite => "unreadable-sqlite",
    };
    let relay = Relay::new(db.db().clone(), harness.log.clone(), source);
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
    let mut rows = bulk::Rows::new(4);
    for bytes in [&newer_batch, &unreadable_inside, &not_a_batch] {
        rows.push([source.into(), Bind::Bytes(bytes.clone()), Bind::Int(1), Bind::Int(now_ms())]);
    }
    let head = "INSERT INTO event_outbox_batch (source, records, events, staged_at_ms)";
    bulk::execute(&mut tx, head, "", rows).await.unwrap();
    tx.commit().await.unwrap();
    let older = deleted("dddddddddddddddddddddddd").to_bytes();
    let oldest = deleted("eeeeeeeeeeeeeeeeeeeeeeee").to_bytes();
    let older_rows = [
        (Some(topics::REGISTRY), "dddddddddddddddddddddddd", older.clone()),
        (None, "eeeeeeeeeeeeeeeeeeeeeeee", oldest.clone()),
        (None, "ffffffffffffffffffffffff", unreadable.clone()),
    ];
    stage_as_older_builds(&db, source, &older_rows, now_ms()).await;
    let before = scraped(RelayMetrics::DEAD_LETTERS, source);

    assert_eq!(relay.flush().await.unwrap(), 7, "every row taken out");
    assert_eq!(waiting(&db).await, 0);
    assert_eq!(scraped(RelayMetrics::DEAD_LETTERS, source) - before, 2.0, "two rows set aside, counted");
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
    let letters = poll_count(letters.as_mut(), "the two dead letters", 2).await;
    let mut letters: Vec<DeadLetter> = letters
        .iter()
        .map(|record| {
            assert_eq!(record.key, "", "a dead letter names no device");
            match Envelope::from_bytes(&record.payload).unwrap().payload {
                Some(Payload::DeadLetter(letter)) => letter,
                other => panic!("a dead letter: {other:?}"),
            }
        })
        .collect();
    letters.sort_unstable_by(|a, b| a.raw_topic.cmp(&b.raw_topic));
    let kept: Vec<(&str, &[u8])> = letters.iter().map(|l| (l.raw_topic.as_str(), l.raw_payload.as_slice())).collect();
    assert_eq!(kept, [("event_outbox", &unreadable[..]), (staged::BATCH_TABLE, &not_a_batch[..])], "kept whole");
    assert!(letters.iter().all(|l| l.reason() == DeadLetterReason::UndecodableEvent));
}

/// Milliseconds since the epoch, now.
fn now_ms() -> i64 {
    i64::try_from(std::time::UNIX_EPOCH.elapsed().unwrap().as_millis()).unwrap()
}

on_each_database!(
    a_staging_is_one_row_and_its_events_reach_the_log_in_order,
    the_running_relay_publishes_the_older_table_first_and_flushes_as_it_stops,
    a_backlog_of_the_older_table_is_published_before_any_batch,
    a_row_this_build_cannot_read_goes_to_the_log_as_staged
);
