//! The outbox. On PostgreSQL, a sequence number is taken at insert but
//! becomes visible at commit: a row that commits, with a lower `seq`, while
//! the relay publishes a later one must still be published. In the embedded
//! log's own database, the outbox is the log itself.

use std::sync::Arc;

use async_trait::async_trait;
use tokio::sync::Mutex;
use wm_eventlog::{
    Consumer, ConsumerOptions, EventLog, OutgoingRecord, Position, Result,
    embedded::{EmbeddedLog, EmbeddedSettings},
    outbox::{self, Relay},
};
use wm_proto::{Envelope, Payload, topics, v1::MeterDeleted};
use wm_storage::{Tx, with_pool};
use wm_test_support::TestDb;

use crate::harness::{Harness, group, poll_count};

/// A log that commits a held transaction while it appends: the moment
/// between the relay's read and its clean-up.
#[derive(Debug)]
struct CommitsDuringAppend {
    inner: Arc<dyn EventLog>,
    held: Mutex<Option<Tx>>,
}

#[async_trait]
impl EventLog for CommitsDuringAppend {
    fn kind(&self) -> &'static str {
        self.inner.kind()
    }
    async fn ensure_topics(&self, topics: &[&str]) -> Result<()> {
        self.inner.ensure_topics(topics).await
    }
    async fn append(&self, record: OutgoingRecord) -> Result<Position> {
        self.inner.append(record).await
    }
    async fn append_batch(&self, records: Vec<OutgoingRecord>) -> Result<Vec<Position>> {
        let positions = self.inner.append_batch(records).await?;
        if let Some(tx) = self.held.lock().await.take() {
            tx.commit().await.unwrap();
        }
        Ok(positions)
    }
    async fn subscribe(&self, group: &str, topics: &[&str], options: ConsumerOptions) -> Result<Box<dyn Consumer>> {
        self.inner.subscribe(group, topics, options).await
    }
    async fn replay(&self, topics: &[&str]) -> Result<Box<dyn Consumer>> {
        self.inner.replay(topics).await
    }
    async fn ready(&self) -> Result<()> {
        self.inner.ready().await
    }
}

fn deleted(meter: &str) -> Envelope {
    Envelope::new(meter, "test", Payload::MeterDeleted(MeterDeleted { id: meter.into() }))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_row_committed_late_with_a_lower_seq_is_published_not_deleted() {
    let Some(pg) = TestDb::postgres().await else { return };
    pg.db().migrate(&outbox::MIGRATIONS).await.unwrap();
    let harness = Harness::embedded().await;
    harness.log.ensure_topics(&[topics::REGISTRY]).await.unwrap();
    let held = Arc::new(CommitsDuringAppend { inner: harness.log.clone(), held: Mutex::new(None) });
    let relay = Relay::new(pg.db().clone(), held.clone(), "test");
    let mut slow = pg.db().begin_write().await.unwrap();
    relay.stage(&mut slow, None, &[deleted("aaaaaaaaaaaaaaaaaaaaaaaa")]).await.unwrap();
    let mut fast = pg.db().begin_write().await.unwrap();
    relay.stage(&mut fast, None, &[deleted("bbbbbbbbbbbbbbbbbbbbbbbb")]).await.unwrap();
    fast.commit().await.unwrap();
    *held.held.lock().await = Some(slow);

    assert_eq!(relay.flush().await.unwrap(), 1, "only the committed row was visible");
    assert_eq!(relay.flush().await.unwrap(), 1, "the row committed meanwhile is still staged");
    assert_eq!(relay.flush().await.unwrap(), 0);

    let mut consumer = harness.subscribe(&group("outbox"), topics::REGISTRY).await;
    let records = poll_count(consumer.as_mut(), "both events", 2).await;
    let mut keys: Vec<&str> = records.iter().map(|r| r.key.as_str()).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["aaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbb"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_the_log_s_own_database_staging_appends_to_the_log_at_commit_and_never_on_rollback() {
    let db = TestDb::sqlite().await;
    db.db().migrate(&outbox::MIGRATIONS).await.unwrap();
    let log: Arc<dyn EventLog> = Arc::new(EmbeddedLog::open(db.db(), EmbeddedSettings::default()).await.unwrap());
    log.ensure_topics(&[topics::REGISTRY]).await.unwrap();
    let relay = Relay::new(db.db().clone(), log.clone(), "test");
    let mut consumer = log.subscribe(&group("direct"), &[topics::REGISTRY], ConsumerOptions::default()).await.unwrap();

    let mut rolled_back = db.db().begin_write().await.unwrap();
    relay.stage(&mut rolled_back, None, &[deleted("aaaaaaaaaaaaaaaaaaaaaaaa")]).await.unwrap();
    drop(rolled_back);
    let mut tx = db.db().begin_write().await.unwrap();
    relay.stage(&mut tx, Some("registry"), &[deleted("bbbbbbbbbbbbbbbbbbbbbbbb")]).await.unwrap();
    tx.commit().await.unwrap();
    relay.wake();

    let records = poll_count(consumer.as_mut(), "the committed event", 1).await;
    assert_eq!(records[0].key, "registry");
    let envelope = Envelope::from_bytes(&records[0].payload).unwrap();
    assert_eq!(envelope.device_id, "bbbbbbbbbbbbbbbbbbbbbbbb", "the rolled-back event is not on the log");
    let waiting: i64 =
        with_pool!(db.db(), pool => sqlx::query_scalar("SELECT COUNT(*) FROM event_outbox").fetch_one(pool).await)
            .unwrap();
    assert_eq!(waiting, 0, "nothing waits in the outbox table");
    assert_eq!(relay.flush().await.unwrap(), 0, "nothing is left to relay");
}
