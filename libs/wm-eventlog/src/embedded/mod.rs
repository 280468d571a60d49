//! The embedded event log: tables in the application's SQLite database.
//!
//! One process owns the log. Group membership is kept in memory
//! ([`groups`]), committed offsets in the database, and a
//! [`tokio::sync::Notify`] wakes waiting consumers on every append and every
//! membership change.

mod append;
mod codec;
mod consumer;
mod groups;
mod retention;
mod store;

use std::{collections::HashMap, fmt, sync::Arc};

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use sqlx::SqlitePool;
use tokio::sync::Notify;
use wm_storage::{Db, Migration, Migrations, Tx};

use self::{consumer::EmbeddedConsumer, groups::Groups};
use crate::{
    Consumer, ConsumerOptions, EventLog, EventLogError, OutgoingRecord, Position, Result, TopicPartition,
    validate_topic,
};

/// The log's tables, applied by [`EmbeddedLog::open`] (or `wmeter migrate`).
pub const MIGRATIONS: Migrations = Migrations {
    component: "eventlog",
    sqlite: &[Migration {
        version: 1,
        name: "event_log",
        sql: include_str!("../../migrations/sqlite/0001_event_log.sql"),
    }],
    postgres: &[],
};

/// The `event_log` settings of the embedded mode.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct EmbeddedSettings {
    /// Partitions of a new topic. An existing topic keeps the count it was
    /// created with, so keys keep their partition.
    pub partitions: i32,
}

impl Default for EmbeddedSettings {
    fn default() -> Self {
        Self { partitions: 8 }
    }
}

impl EmbeddedSettings {
    pub fn validate(&self) -> Result<()> {
        if !(1..=1024).contains(&self.partitions) {
            return Err(EventLogError::InvalidSettings {
                key: "event_log.partitions",
                message: format!("must be between 1 and 1024, not {}", self.partitions),
            });
        }
        Ok(())
    }
}

/// The event log of the embedded mode. Cheap to clone; all clones share one
/// log (one writer lock, one set of groups, one wake-up signal), so a
/// process must open it once.
#[derive(Clone)]
pub struct EmbeddedLog {
    shared: Arc<Shared>,
}

struct Shared {
    pool: SqlitePool,
    settings: EmbeddedSettings,
    /// Serializes this process's writes to the database, the services'
    /// transactions included.
    write: wm_storage::Writer,
    /// Signalled after every append and every group membership change.
    changed: Notify,
    groups: Groups,
    /// Partition counts of known topics (they never change).
    topics: std::sync::Mutex<HashMap<String, i32>>,
    /// The end (next offset) of each partition, as far as this process has
    /// seen: a hint that lets a woken consumer skip the partitions it has
    /// read to the end. Another process appending to the same file is not
    /// seen here; a consumer still reads every partition once per poll
    /// timeout.
    ends: std::sync::Mutex<HashMap<TopicPartition, i64>>,
}

impl EmbeddedLog {
    /// Applies [`MIGRATIONS`] to `db`, which must be SQLite, and opens the log.
    #[tracing::instrument(skip_all)]
    pub async fn open(db: &Db, settings: EmbeddedSettings) -> Result<Self> {
        let pool = db.sqlite().ok_or_else(|| EventLogError::InvalidSettings {
            key: "database.url",
            message: "the embedded event log needs a sqlite:// database".to_owned(),
        })?;
        db.migrate(&MIGRATIONS).await?;
        Self::new(pool.clone(), settings)
    }

    /// Whether `db` is the database this log lives in: then a service's
    /// transaction on it may append to the log ([`EmbeddedLog::append_in`]).
    pub fn lives_in(&self, db: &Db) -> bool {
        let file = |pool: &SqlitePool| pool.connect_options().get_filename().to_path_buf();
        db.sqlite().is_some_and(|pool| file(pool) == file(&self.shared.pool))
    }

    /// Appends `records` in `tx`, a write transaction on the log's own
    /// database ([`EmbeddedLog::lives_in`]): they are on the log if and only
    /// if it commits. Call [`EmbeddedLog::wake`] after the commit.
    pub async fn append_in(&self, tx: &mut Tx, records: Vec<OutgoingRecord>) -> Result<Vec<Position>> {
        match tx {
            Tx::Sqlite(conn, _) => append::append_in(&self.shared, conn, records).await,
            Tx::Postgres(_) => Err(EventLogError::InvalidSettings {
                key: "database.url",
                message: "the embedded event log is appended to only in its own sqlite:// database".to_owned(),
            }),
        }
    }

    /// Deletes the records of `topic` appended before `before`, except what
    /// a running group has still to read and each partition's last record
    /// ([`retention`]); returns how many went.
    pub async fn expire(&self, topic: &str, before: chrono::DateTime<chrono::Utc>) -> Result<u64> {
        validate_topic(topic)?;
        retention::expire(&self.shared, topic, before.timestamp_millis()).await
    }

    /// Whether records of `topic` were expired ([`EmbeddedLog::expire`]): a
    /// partition's first record is past offset 0. A replay then rebuilds
    /// from what is left.
    pub async fn expired(&self, topic: &str) -> Result<bool> {
        validate_topic(topic)?;
        retention::expired(&self.shared, topic).await
    }

    /// Wakes the consumers: records were committed by [`EmbeddedLog::append_in`].
    pub fn wake(&self) {
        self.shared.changed.notify_waiters();
    }

    /// Opens the log on a database where [`MIGRATIONS`] are applied.
    pub fn new(pool: SqlitePool, settings: EmbeddedSettings) -> Result<Self> {
        settings.validate()?;
        let shared = Shared {
            write: wm_storage::Writer::of(&pool),
            pool,
            settings,
            changed: Notify::new(),
            groups: Groups::default(),
            topics: std::sync::Mutex::new(HashMap::new()),
            ends: std::sync::Mutex::new(HashMap::new()),
        };
        Ok(Self { shared: Arc::new(shared) })
    }
}

impl Shared {
    /// Raises the known end of `tp` to `end`.
    fn saw_end(&self, tp: &TopicPartition, end: i64) {
        let mut ends = self.ends.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let known = ends.entry(tp.clone()).or_insert(end);
        *known = (*known).max(end);
    }

    /// Whether `tp` is known to end at or before `position`.
    fn read_to_end(&self, tp: &TopicPartition, position: i64) -> bool {
        let ends = self.ends.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        ends.get(tp).is_some_and(|end| position >= *end)
    }

    /// The topic's partition count, creating the topic when it is new.
    async fn partitions(&self, topic: &str) -> Result<i32> {
        if let Some(n) = self.cached_partitions(topic) {
            return Ok(n);
        }
        let mut conn = self.pool.acquire().await?;
        self.partitions_on(&mut conn, topic).await
    }

    /// The same, on `conn` (a transaction holding the write lock, whose
    /// database no other connection may write to meanwhile).
    async fn partitions_on(&self, conn: &mut sqlx::SqliteConnection, topic: &str) -> Result<i32> {
        if let Some(n) = self.cached_partitions(topic) {
            return Ok(n);
        }
        let n = match store::topic_partitions(conn, topic).await? {
            Some(n) => n,
            None => store::create_topic(conn, topic, self.settings.partitions).await?,
        };
        self.topics.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(topic.to_owned(), n);
        Ok(n)
    }

    fn cached_partitions(&self, topic: &str) -> Option<i32> {
        self.topics.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(topic).copied()
    }

    async fn subscriptions(&self, topics: &[&str]) -> Result<Vec<(String, i32)>> {
        let mut out = Vec::with_capacity(topics.len());
        for topic in topics {
            validate_topic(topic)?;
            out.push(((*topic).to_owned(), self.partitions(topic).await?));
        }
        Ok(out)
    }
}

#[async_trait]
impl EventLog for EmbeddedLog {
    fn kind(&self) -> &'static str {
        "embedded"
    }

    fn embedded(&self) -> Option<&EmbeddedLog> {
        Some(self)
    }

    #[tracing::instrument(skip_all, fields(log = "embedded", ?topics))]
    async fn ensure_topics(&self, topics: &[&str]) -> Result<()> {
        self.shared.subscriptions(topics).await.map(drop)
    }

    async fn append(&self, record: OutgoingRecord) -> Result<Position> {
        let mut positions = append::append_batch(&self.shared, vec![record]).await?;
        Ok(positions.pop().expect("append_batch returns one position per record"))
    }

    async fn append_batch(&self, records: Vec<OutgoingRecord>) -> Result<Vec<Position>> {
        append::append_batch(&self.shared, records).await
    }

    #[tracing::instrument(skip_all, fields(log = "embedded", group = %group, ?topics))]
    async fn subscribe(&self, group: &str, topics: &[&str], options: ConsumerOptions) -> Result<Box<dyn Consumer>> {
        if group.is_empty() {
            return Err(EventLogError::InvalidSettings { key: "group", message: "must not be empty".into() });
        }
        let subscriptions = self.shared.subscriptions(topics).await?;
        let consumer = EmbeddedConsumer::member(self.shared.clone(), group, subscriptions, options);
        Ok(Box::new(consumer))
    }

    #[tracing::instrument(skip_all, fields(log = "embedded", ?topics))]
    async fn replay(&self, topics: &[&str]) -> Result<Box<dyn Consumer>> {
        let subscriptions = self.shared.subscriptions(topics).await?;
        Ok(Box::new(EmbeddedConsumer::replay(self.shared.clone(), subscriptions).await?))
    }

    async fn ready(&self) -> Result<()> {
        sqlx::query("SELECT 1 FROM event_log_topics LIMIT 1").execute(&self.shared.pool).await?;
        Ok(())
    }
}

impl fmt::Debug for EmbeddedLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EmbeddedLog").field("settings", &self.shared.settings).finish_non_exhaustive()
    }
}
