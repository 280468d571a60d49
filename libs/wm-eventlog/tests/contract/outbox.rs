//! The outbox. On PostgreSQL, a sequence number is taken at insert but
//! becomes visible at commit: a row that commits, with a lower `seq`, while
//! the relay publishes a later one must still be published; a round the log
//! refuses takes nothing out; the relay vacuums its tables as it goes, and
//! finds its rows by index however empty the table was when first read. On
//! both databases, a staging is one row whose events reach the log in
//! order; a row this build cannot read goes to the log as it was staged,
//! or to the dead letters when it cannot be split into records; and the
//! oldest row's age climbs while nothing is published; and a round takes
//! many small stagings at once. On SQLite with the log elsewhere, an empty
//! round writes nothing. In the embedded log's own database, the outbox is
//! the log itself.

use std::sync::{
    Arc,
    atomic::{AtomicBool, Ordering},
};

use async_trait::async_trait;
use prometheus_client::registry::Registry;
use tokio::sync::Mutex;
use tokio_util::sync::CancellationToken;
use wm_eventlog::{
    Consumer, ConsumerOptions, EventLog, EventLogError, OutgoingRecord, Position, Result,
    embedded::{EmbeddedLog, EmbeddedSettings},
    outbox::{self, Relay, RelayMetrics},
};
use wm_proto::{Envelope, Payload, topics, v1::MeterDeleted};
use wm_storage::{Backend, Tx, bulk, query::Bind, with_pool};
use wm_test_support::TestDb;

use crate::harness::{Harness, WAIT, group, poll_count};

/// A log that interferes with the relay's append: it commits a held
/// transaction meanwhile (the moment between the relay's read and its
/// clean-up), or refuses the batch, or every batch while `refusing`. It
/// keeps how many records each append it took held.
#[derive(Debug)]
struct Interferes {
    inner: Arc<dyn EventLog>,
    held: Mutex<Option<Tx>>,
    refuse_next: AtomicBool,
    refusing: AtomicBool,
    appended: std::sync::Mutex<Vec<usize>>,
}

impl Interferes {
    fn new(inner: Arc<dyn EventLog>) -> Arc<Self> {
        let (refuse_next, refusing) = (AtomicBool::new(false), AtomicBool::new(false));
        Arc::new(Self { inner, held: Mutex::new(None), refuse_next, refusing, appended: Default::default() })
    }
}

#[async_trait]
impl EventLog for Interferes {
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
        if self.refuse_next.swap(false, Ordering::SeqCst) || self.refusing.load(Ordering::SeqCst) {
            return Err(EventLogError::UnknownTopic("refused by the test".into()));
        }
        let count = records.len();
        let positions = self.inner.append_batch(records).await?;
        self.appended.lock().unwrap().push(count);
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
    let Some((pg, harness)) = on_postgres().await else { return };
    let held = Interferes::new(harness.log.clone());
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
async fn on_postgresql_a_round_the_log_refuses_takes_nothing_out() {
    let Some((pg, harness)) = on_postgres().await else { return };
    let log = Interferes::new(harness.log.clone());
    let relay = Relay::new(pg.db().clone(), log.clone(), "test");
    let mut tx = pg.db().begin_write().await.unwrap();
    relay
        .stage(&mut tx, None, &[deleted("aaaaaaaaaaaaaaaaaaaaaaaa"), deleted("bbbbbbbbbbbbbbbbbbbbbbbb")])
        .await
        .unwrap();
    tx.commit().await.unwrap();

    log.refuse_next.store(true, Ordering::SeqCst);
    relay.flush().await.expect_err("the log refused the round");
    assert_eq!(waiting(&pg).await, 2, "both rows are still staged");
    assert_eq!(relay.flush().await.unwrap(), 2, "the next round publishes them");
    assert_eq!(waiting(&pg).await, 0);

    let mut consumer = harness.subscribe(&group("outbox"), topics::REGISTRY).await;
    let records = poll_count(consumer.as_mut(), "both events", 2).await;
    let mut keys: Vec<&str> = records.iter().map(|r| r.key.as_str()).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["aaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbb"], "each once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgresql_the_relay_vacuums_its_table_as_it_takes_rows_out() {
    let Some((pg, harness)) = on_postgres().await else { return };
    let relay = Relay::new(pg.db().clone(), harness.log.clone(), "test");
    let events: Vec<Envelope> = (0..outbox::VACUUM_EVERY).map(|i| deleted(&format!("{i:024x}"))).collect();
    let mut tx = pg.db().begin_write().await.unwrap();
    relay.stage(&mut tx, None, &events[..outbox::VACUUM_EVERY - 1]).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(relay.flush().await.unwrap(), outbox::VACUUM_EVERY - 1);
    assert_eq!(vacuums(&pg).await, 0, "one event short of a vacuum");

    let mut tx = pg.db().begin_write().await.unwrap();
    relay.stage(&mut tx, None, &events[outbox::VACUUM_EVERY - 1..]).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(relay.flush().await.unwrap(), 1);
    assert_eq!(vacuums(&pg).await, 1, "vacuumed once {} events were taken out", outbox::VACUUM_EVERY);
    assert_eq!(waiting(&pg).await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_sqlite_with_the_log_elsewhere_a_round_publishes_and_an_empty_one_writes_nothing() {
    let (db, harness) = beside_a_log(TestDb::sqlite().await).await;
    let relay = Relay::new(db.db().clone(), harness.log.clone(), "test");
    let turns = || -> u64 {
        let outbox = wm_storage::writer::spent_by_site().into_iter().filter(|(site, _)| site.contains("outbox.rs:"));
        outbox.map(|(_, spent)| spent.turns).sum()
    };
    let mut tx = db.db().begin_write().await.unwrap();
    relay.stage(&mut tx, None, &[deleted("aaaaaaaaaaaaaaaaaaaaaaaa")]).await.unwrap();
    tx.commit().await.unwrap();

    assert_eq!(relay.flush().await.unwrap(), 1);
    assert_eq!(waiting(&db).await, 0);
    let after_one = turns();
    assert_eq!(relay.flush().await.unwrap(), 0);
    assert_eq!(turns(), after_one, "a round with nothing to publish takes no turn at the writer");
    let mut consumer = harness.subscribe(&group("outbox"), topics::REGISTRY).await;
    let records = poll_count(consumer.as_mut(), "the event", 1).await;
    assert_eq!(records[0].key, "aaaaaaaaaaaaaaaaaaaaaaaa");
}

/// While the log refuses every round, the age of the oldest row waiting,
/// of either table, climbs from its staging time, read by the running relay
/// on its own; once the relay has published them, the age is zero again.
async fn the_oldest_row_s_age_climbs_while_nothing_is_published(db: TestDb, harness: Harness) {
    let log = Interferes::new(harness.log.clone());
    log.refusing.store(true, Ordering::SeqCst);
    // The ages are kept per process and source: one source per database.
    let source = match db.db().backend() {
        Backend::Postgres => "oldest-postgres",
        Backend::Sqlite => "oldest-sqlite",
    };
    let relay = Relay::new(db.db().clone(), log.clone(), source);
    let mut tx = db.db().begin_write().await.unwrap();
    relay.stage(&mut tx, None, &[deleted("aaaaaaaaaaaaaaaaaaaaaaaa")]).await.unwrap();
    tx.commit().await.unwrap();
    let a_minute_ago = "UPDATE event_outbox_batch SET staged_at_ms = staged_at_ms - 60000";
    with_pool!(db.db(), pool => sqlx::query(a_minute_ago).execute(pool).await.map(drop)).unwrap();
    let two_minutes_ago = i64::try_from(std::time::UNIX_EPOCH.elapsed().unwrap().as_millis()).unwrap() - 120_000;
    let older = (Some(topics::REGISTRY), "bbbbbbbbbbbbbbbbbbbbbbbb", deleted("bbbbbbbbbbbbbbbbbbbbbbbb").to_bytes());
    stage_as_older_builds(&db, source, &[older], two_minutes_ago).await;
    let stop = CancellationToken::new();
    let running = tokio::spawn(relay.clone().run(stop.clone()));

    let age = until_scraped(RelayMetrics::OLDEST, source, |age| age >= 120.0).await;
    assert!(age < 120.0 + WAIT.as_secs_f64(), "counted from the older table's row: {age}");
    assert_eq!(waiting(&db).await, 2, "nothing was published");
    log.refusing.store(false, Ordering::SeqCst);
    until_scraped(RelayMetrics::OLDEST, source, |age| age == 0.0).await;
    assert_eq!(waiting(&db).await, 0);
    stop.cancel();
    running.await.unwrap();
}

/// `source`'s series of the relays' `metric`, as scraped, once `settled`
/// holds it.
async fn until_scraped(metric: &str, source: &str, settled: impl Fn(f64) -> bool) -> f64 {
    let deadline = tokio::time::Instant::now() + WAIT + outbox::OLDEST_EVERY;
    loop {
        let value = scraped(metric, source);
        if settled(value) {
            return value;
        }
        assert!(tokio::time::Instant::now() < deadline, "{metric} of {source} stayed at {value}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// `source`'s series of the relays' `metric` (a counter's name without its
/// `_total`), as a scrape reads it.
fn scraped(metric: &str, source: &str) -> f64 {
    let mut registry = Registry::default();
    RelayMetrics::register(&mut registry);
    let mut text = String::new();
    prometheus_client::encoding::text::encode(&mut text, &registry).unwrap();
    let series = [format!("{metric}{{source=\"{source}\"}} "), format!("{metric}_total{{source=\"{source}\"}} ")];
    let value = text.lines().find_map(|l| series.iter().find_map(|s| l.strip_prefix(s.as_str())));
    value.unwrap_or_else(|| panic!("{metric} of {source} in {text}")).parse().unwrap()
}

/// A row of `event_outbox` as a build before the batches staged it: its
/// topic (`None` from a build before topics were kept), key and envelope.
type OlderRow<'a> = (Option<&'a str>, &'a str, Vec<u8>);

/// Stages `rows` in `event_outbox` for `source`, at `staged_at_ms`.
async fn stage_as_older_builds(db: &TestDb, source: &str, rows: &[OlderRow<'_>], staged_at_ms: i64) {
    let mut staged = bulk::Rows::new(5);
    for (topic, key, bytes) in rows {
        let topic = topic.map_or(Bind::NullText, Bind::from);
        staged.push([source.into(), topic, (*key).into(), Bind::Bytes(bytes.clone()), Bind::Int(staged_at_ms)]);
    }
    let head = "INSERT INTO event_outbox (source, topic, record_key, envelope, staged_at_ms)";
    let mut tx = db.db().begin_write().await.unwrap();
    bulk::execute(&mut tx, head, "", staged).await.unwrap();
    tx.commit().await.unwrap();
}

/// Runs each scenario on PostgreSQL and on SQLite, as `contract!` runs one
/// on each log: the database with the outbox table, beside a log of its own.
macro_rules! on_each_database {
    ($($name:ident),+ $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgresql() {
                let Some((db, harness)) = crate::outbox::on_postgres().await else { return };
                super::$name(db, harness).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let (db, harness) = crate::outbox::beside_a_log(wm_test_support::TestDb::sqlite().await).await;
                super::$name(db, harness).await;
            }
        }
    )+};
}

/// A round is one append to the log: it takes up to 64 stagings while the
/// events before each are fewer than 4,000, however few each holds. With
/// rounds of eight rows, stagings of a few events each were published a
/// few dozen at a time, fewer a second than ingest staged at half rate
/// with four replicas.
async fn a_round_takes_small_stagings_up_to_its_rows_and_events(db: TestDb, harness: Harness) {
    let log = Interferes::new(harness.log.clone());
    let relay = Relay::new(db.db().clone(), log.clone(), "test");
    let mut n = 0;
    let mut stage = async |events: usize| {
        let mut tx = db.db().begin_write().await.unwrap();
        let staged: Vec<Envelope> = (n..n + events).map(|i| deleted(&format!("{i:024x}"))).collect();
        relay.stage(&mut tx, Some("registry"), &staged).await.unwrap();
        tx.commit().await.unwrap();
        n += events;
    };
    for _ in 0..70 {
        stage(2).await;
    }
    for _ in 0..50 {
        stage(100).await;
    }
    assert_eq!(relay.flush().await.unwrap(), 5_140);
    let appended = log.appended.lock().unwrap().clone();
    assert_eq!(appended, [128, 12 + 4_000, 1_000], "64 rows; then up to the 4,000th event; then the rest");
    let mut consumer = harness.subscribe(&group("outbox"), topics::REGISTRY).await;
    let records = poll_count(consumer.as_mut(), "every event", 5_140).await;
    let ids: Vec<String> = records.iter().map(|r| Envelope::from_bytes(&r.payload).unwrap().device_id).collect();
    let staged: Vec<String> = (0..5_140).map(|i| format!("{i:024x}")).collect();
    assert_eq!(ids, staged, "in the order staged");
}

on_each_database!(
    the_oldest_row_s_age_climbs_while_nothing_is_published,
    a_round_takes_small_stagings_up_to_its_rows_and_events
);

mod formats;
mod plans;

/// A PostgreSQL database with the outbox table, beside a log.
async fn on_postgres() -> Option<(TestDb, Harness)> {
    Some(beside_a_log(TestDb::postgres().await?).await)
}

/// `db` with the outbox tables, and an embedded log of its own (elsewhere)
/// with the registry's topic and the dead letters' for the relay to publish
/// to.
async fn beside_a_log(db: TestDb) -> (TestDb, Harness) {
    db.db().migrate(&outbox::MIGRATIONS).await.unwrap();
    let harness = Harness::embedded().await;
    harness.log.ensure_topics(&[topics::REGISTRY, topics::DEAD_LETTERS]).await.unwrap();
    (db, harness)
}

/// Events waiting in the outbox tables.
async fn waiting(db: &TestDb) -> i64 {
    let sql = "SELECT (SELECT COUNT(*) FROM event_outbox) + \
               (SELECT COALESCE(SUM(events), 0) FROM event_outbox_batch)";
    with_pool!(db.db(), pool => sqlx::query_scalar(sql).fetch_one(pool).await).unwrap()
}

/// Rows waiting in the batch table.
async fn batch_rows(db: &TestDb) -> i64 {
    let sql = "SELECT COUNT(*) FROM event_outbox_batch";
    with_pool!(db.db(), pool => sqlx::query_scalar(sql).fetch_one(pool).await).unwrap()
}

/// The batch table's vacuums other than autovacuum's.
async fn vacuums(db: &TestDb) -> i64 {
    let sql = "SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = 'event_outbox_batch'";
    with_pool!(db.db(), pool => sqlx::query_scalar(sql).fetch_one(pool).await).unwrap()
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
    assert_eq!(waiting(&db).await, 0, "nothing waits in the outbox table");
    assert_eq!(relay.flush().await.unwrap(), 0, "nothing is left to relay");
}
