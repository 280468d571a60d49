//! The transactional outbox (DESIGN §4). A service stages its events with
//! [`Relay::stage`] in the transaction that changes its state, so either
//! both happen or neither, and calls [`Relay::wake`] after the commit.
//!
//! - When the log is the embedded one, in the service's own database, the
//!   outbox is the log itself: staging appends to it in that transaction,
//!   and waking wakes its consumers. Nothing is copied or deleted.
//! - Otherwise the events wait in the `event_outbox` table, and the relay
//!   publishes them to the log in staging order, then deletes them.
//!   Delivery is at-least-once: a relay stopped between publishing and
//!   deleting publishes that batch again. A row holds its record whole
//!   (topic, key, envelope and trace header, worked out when staged), and
//!   the relay publishes the envelope's bytes without reading them: an
//!   event staged by a newer build keeps the fields this one does not
//!   know, and one no build can read goes to the log like any other,
//!   rather than stopping its relay. Each service relays only its own
//!   `source`, so services sharing one database never publish each other's
//!   events. On PostgreSQL, replicas of a service take turns through an
//!   advisory lock, so one batch is not published by two of them at once.
//!   There a round takes its rows out in one `DELETE … RETURNING`, in the
//!   lock's transaction, and commits only once the log has them; and the
//!   relay vacuums the table every [`VACUUM_EVERY`] rows it took out, since
//!   each round's scan walks every row deleted since the last vacuum.

use std::{
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use chrono::Utc;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use wm_proto::Envelope;
use wm_storage::{Db, Migrations, StorageError, Tx, bulk, query::Bind, with_pool};

pub use self::relayed::RelayMetrics;
use crate::{EventLog, EventLogError, OutgoingRecord, embedded::EmbeddedLog, envelopes};

mod relayed;

/// The outbox table, applied by each service that stages events.
pub const MIGRATIONS: Migrations =
    wm_storage::migrations!("outbox" in "migrations/outbox", 1 => "outbox", 2 => "record");

/// Rows published per round.
const BATCH: i64 = 500;
/// How often a relay looks for rows when nobody woke it (rows staged by
/// another replica or process).
const IDLE_POLL: Duration = Duration::from_secs(1);
/// How often a relay reads how long its oldest row has waited.
pub const OLDEST_EVERY: Duration = Duration::from_secs(5);
/// Rows a relay takes out of the table on PostgreSQL between two `VACUUM`s
/// of it. Autovacuum visits a database once a minute at most; until a
/// vacuum, every round's index scan reads the entries of every row deleted
/// before it (docs/performance.md §2): a minute of outbox traffic at
/// 16,000 rows a second made each scan read some 3,000 pages.
pub const VACUUM_EVERY: usize = 20_000;

#[derive(Debug, thiserror::Error)]
pub enum OutboxError {
    #[error("outbox storage failed")]
    Storage(#[from] StorageError),
    #[error("a staged event is corrupt")]
    Corrupt(#[from] wm_proto::DecodeError),
    #[error(transparent)]
    Log(#[from] EventLogError),
}

/// Stages `records` in the `event_outbox` table for `source`'s relay: each
/// row holds the record whole, its topic, key, envelope and trace header.
async fn stage_rows(tx: &mut Tx, source: &str, records: Vec<OutgoingRecord>) -> Result<(), StorageError> {
    let now = Utc::now().timestamp_millis();
    let mut rows = bulk::Rows::new(6);
    for record in records {
        let traceparent = record.headers.into_iter().find(|(name, _)| name == envelopes::TRACEPARENT);
        let traceparent = traceparent.map(|(_, value)| String::from_utf8_lossy(&value).into_owned());
        rows.push([
            source.into(),
            record.topic.into(),
            record.key.into(),
            Bind::Bytes(record.payload),
            traceparent.into(),
            Bind::Int(now),
        ]);
    }
    // In one statement, rows get their `seq` in the order listed.
    let head = "INSERT INTO event_outbox (source, topic, record_key, envelope, traceparent, staged_at_ms)";
    bulk::execute(tx, head, "", rows).await?;
    Ok(())
}

/// One source's outbox: stages its events, and publishes them when they
/// wait in the table.
#[derive(Clone, Debug)]
pub struct Relay {
    db: Db,
    log: Arc<dyn EventLog>,
    source: &'static str,
    wake: Arc<Notify>,
    /// The log, when it lives in `db`: the outbox is the log itself.
    direct: Option<EmbeddedLog>,
    /// Rows taken out since this relay last vacuumed the table.
    taken_out: Arc<AtomicUsize>,
}

impl Relay {
    pub fn new(db: Db, log: Arc<dyn EventLog>, source: &'static str) -> Self {
        let direct = log.embedded().filter(|log| log.lives_in(&db)).cloned();
        relayed::start(source);
        Self { db, log, source, wake: Arc::new(Notify::new()), direct, taken_out: Arc::default() }
    }

    /// Stages `envelopes` in `tx`. Each is published on its payload's
    /// topic, with the record key `key`, or its own `device_id` (the
    /// partition key of DESIGN §4) when `key` is `None`, carrying the
    /// current trace unless it has one.
    pub async fn stage(&self, tx: &mut Tx, key: Option<&str>, envelopes: &[Envelope]) -> Result<(), StorageError> {
        if envelopes.is_empty() {
            return Ok(());
        }
        let traceparent = crate::trace::current_traceparent();
        let traced = |envelope: &Envelope| match &traceparent {
            Some(traceparent) if envelope.correlation_id.is_empty() => {
                Some(envelope.clone().with_correlation_id(traceparent.clone()))
            }
            _ => None,
        };
        let mut records = Vec::with_capacity(envelopes.len());
        for envelope in envelopes {
            let traced = traced(envelope);
            let envelope = traced.as_ref().unwrap_or(envelope);
            let key = key.unwrap_or(&envelope.device_id);
            records.push(envelopes::record_keyed(envelope, key).map_err(into_storage)?);
        }
        match &self.direct {
            Some(log) => log.append_in(tx, records).await.map(drop).map_err(into_storage),
            None => stage_rows(tx, self.source, records).await,
        }
    }

    /// Tells the relay, or the log's consumers, that events were staged
    /// (call it after the commit).
    pub fn wake(&self) {
        match &self.direct {
            Some(log) => log.wake(),
            None => self.wake.notify_one(),
        }
    }

    /// Publishes what is staged, round after round, until nothing is left.
    /// Returns how many events were published.
    pub async fn flush(&self) -> Result<usize, OutboxError> {
        let mut total = 0;
        loop {
            let published = self.publish_round().await?;
            total += published;
            if published < BATCH as usize {
                return Ok(total);
            }
        }
    }

    /// Flushes whenever woken, and every second anyway, until `stop`;
    /// failures are logged and retried. Meanwhile it reads, every
    /// [`OLDEST_EVERY`], how long the oldest row waiting for it has waited,
    /// for the metrics: on its own, so it still climbs while the relay
    /// publishes nothing. When the outbox is the log, it flushes what an
    /// older build left in the table, once, and returns.
    pub async fn run(self, stop: CancellationToken) {
        if self.direct.is_some() {
            return self.relay(stop).await;
        }
        tokio::join!(self.relay(stop.clone()), self.watch_oldest(stop));
    }

    async fn relay(&self, stop: CancellationToken) {
        loop {
            match self.flush().await {
                Ok(_) if self.direct.is_some() => return,
                Ok(_) => {}
                Err(e) => tracing::warn!(error = ?e, source = self.source, "outbox relay failed, retrying"),
            }
            tokio::select! {
                () = stop.cancelled() => return,
                () = self.wake.notified() => {}
                () = tokio::time::sleep(IDLE_POLL) => {}
            }
        }
    }

    async fn watch_oldest(&self, stop: CancellationToken) {
        loop {
            match self.oldest_staged().await {
                Ok(staged_at_ms) => relayed::oldest(self.source, staged_at_ms),
                Err(e) => tracing::warn!(error = %e, source = self.source, "reading the outbox's oldest row failed"),
            }
            tokio::select! {
                () = stop.cancelled() => return,
                () = tokio::time::sleep(OLDEST_EVERY) => {}
            }
        }
    }

    /// When the oldest row waiting for this relay was staged (ms since the
    /// epoch), if any: the first by `seq`, through the table's index.
    async fn oldest_staged(&self) -> Result<Option<i64>, StorageError> {
        let sql = "SELECT staged_at_ms FROM event_outbox WHERE source = $1 ORDER BY seq LIMIT 1";
        Ok(with_pool!(&self.db, pool => sqlx::query_scalar(sql)
            .persistent(false)
            .bind(self.source)
            .fetch_optional(pool)
            .await)?)
    }

    /// Publishes up to [`BATCH`] rows, and deletes them.
    async fn publish_round(&self) -> Result<usize, OutboxError> {
        match &self.db {
            // One process owns a SQLite database, and the embedded log
            // writes to it too: holding a transaction across the publish
            // would lock the log out.
            Db::Sqlite(_) => self.publish_staged().await,
            Db::Postgres(pool) => {
                let mut tx = pool.begin().await.map_err(StorageError::from)?;
                let locked: bool = sqlx::query_scalar("SELECT pg_try_advisory_xact_lock($1)")
                    .bind(lock_key(self.source))
                    .fetch_one(&mut *tx)
                    .await
                    .map_err(StorageError::from)?;
                if !locked {
                    return Ok(0);
                }
                // Taken out and published in one transaction: if the log
                // refuses them, the rollback puts them back, and releases
                // the lock before the next round asks for it.
                let rows = match self.take_out_and_publish(&mut tx).await {
                    Ok(rows) => rows,
                    Err(e) => {
                        if let Err(rollback) = tx.rollback().await {
                            tracing::warn!(error = %rollback, source = self.source, "outbox round: rollback failed");
                        }
                        return Err(e);
                    }
                };
                tx.commit().await.map_err(StorageError::from)?;
                self.relayed(&rows);
                self.vacuum_after(pool, rows.len()).await;
                Ok(rows.len())
            }
        }
    }

    /// PostgreSQL's round in `tx`: takes up to [`BATCH`] rows out and
    /// publishes them. The statement is planned at each round, never once
    /// for all: a plan made while the table was empty scans it whole, and
    /// between two vacuums it holds every row deleted since
    /// (docs/performance.md §2).
    async fn take_out_and_publish(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    ) -> Result<Vec<Taken>, OutboxError> {
        let sql = "DELETE FROM event_outbox WHERE seq IN \
                   (SELECT seq FROM event_outbox WHERE source = $1 ORDER BY seq LIMIT $2) \
                   RETURNING seq, topic, record_key, envelope, traceparent, staged_at_ms";
        let mut rows: Vec<Staged> = sqlx::query_as(sql)
            .persistent(false)
            .bind(self.source)
            .bind(BATCH)
            .fetch_all(&mut **tx)
            .await
            .map_err(StorageError::from)?;
        rows.sort_unstable_by_key(|row| row.seq);
        self.publish(rows).await
    }

    /// SQLite's round: reads up to [`BATCH`] rows, publishes them, then
    /// deletes exactly those.
    async fn publish_staged(&self) -> Result<usize, OutboxError> {
        let sql = "SELECT seq, topic, record_key, envelope, traceparent, staged_at_ms FROM event_outbox \
                   WHERE source = $1 ORDER BY seq LIMIT $2";
        let rows: Vec<Staged> =
            with_pool!(&self.db, pool => sqlx::query_as(sql).bind(self.source).bind(BATCH).fetch_all(pool).await)
                .map_err(StorageError::from)?;
        if rows.is_empty() {
            return Ok(0);
        }
        let taken = self.publish(rows).await?;
        // Exactly the rows published, never a range: sequence numbers are
        // taken at insert but become visible at commit, so a transaction
        // still open during the SELECT can commit a lower `seq` afterwards.
        let mut published = bulk::Rows::new(1);
        taken.iter().for_each(|row| published.push([Bind::Int(row.seq)]));
        let mut tx = self.db.begin_write().await?;
        let head = "DELETE FROM event_outbox WHERE seq IN (SELECT column1 FROM (";
        bulk::execute(&mut tx, head, ") AS v)", published).await?;
        tx.commit().await?;
        self.relayed(&taken);
        Ok(taken.len())
    }

    /// Counts a round's rows, published and taken out, for the metrics.
    fn relayed(&self, taken: &[Taken]) {
        relayed::count(self.source, taken.iter().map(|row| row.staged_at_ms), Utc::now().timestamp_millis());
    }

    /// Appends staged rows to the log, in staging order, as they were
    /// staged: the envelopes are not read, so one this build cannot read
    /// goes to the log whole, where each consumer decides (a projection
    /// skips it, [`envelopes::decode`]).
    async fn publish(&self, rows: Vec<Staged>) -> Result<Vec<Taken>, OutboxError> {
        let mut taken = Vec::with_capacity(rows.len());
        let mut records = Vec::with_capacity(rows.len());
        for row in rows {
            taken.push(Taken { seq: row.seq, staged_at_ms: row.staged_at_ms });
            records.push(row.into_record()?);
        }
        if !records.is_empty() {
            self.log.append_batch(records).await?;
        }
        Ok(taken)
    }

    /// Vacuums the table once this relay has taken [`VACUUM_EVERY`] rows
    /// out of it since the last time. A failure is logged: the rows are
    /// published, and the next vacuum, or autovacuum, does the work.
    async fn vacuum_after(&self, pool: &sqlx::PgPool, taken_out: usize) {
        if self.taken_out.fetch_add(taken_out, Ordering::Relaxed) + taken_out < VACUUM_EVERY {
            return;
        }
        self.taken_out.store(0, Ordering::Relaxed);
        // Outside any transaction. Another replica's vacuum under way is
        // skipped, not waited for; and the table is never truncated, which
        // waits up to 5 s for a lock that every staging transaction holds,
        // then takes it from them.
        let vacuum = "VACUUM (SKIP_LOCKED, INDEX_CLEANUP ON, TRUNCATE OFF) event_outbox";
        if let Err(e) = sqlx::raw_sql(vacuum).execute(pool).await {
            tracing::warn!(error = %e, source = self.source, "vacuuming the outbox failed");
        }
    }
}

/// A staged row: the record it becomes, its place in the table, and when
/// it was staged (ms since the epoch).
struct Staged {
    seq: i64,
    /// `None` on the rows staged before the table held records whole
    /// (migration 2): their envelope is read to find it.
    topic: Option<String>,
    record_key: String,
    envelope: Vec<u8>,
    traceparent: Option<String>,
    staged_at_ms: i64,
}

wm_storage::from_row!(Staged { seq, topic, record_key, envelope, traceparent, staged_at_ms });

impl Staged {
    fn into_record(self) -> Result<OutgoingRecord, OutboxError> {
        let Some(topic) = self.topic else {
            return Ok(envelopes::record_keyed(&Envelope::from_bytes(&self.envelope)?, self.record_key)?);
        };
        let record = OutgoingRecord::new(topic, self.record_key, self.envelope);
        Ok(match self.traceparent {
            Some(traceparent) => record.with_header(envelopes::TRACEPARENT, traceparent),
            None => record,
        })
    }
}

/// What a round took out of the table.
struct Taken {
    seq: i64,
    staged_at_ms: i64,
}

/// The log's error as the storage error a service's transaction returns:
/// an envelope that cannot become a record (it has no payload) is corrupt.
fn into_storage(e: EventLogError) -> StorageError {
    match e {
        EventLogError::Storage(e) => e,
        EventLogError::Database(e) => StorageError::Query(e),
        other => StorageError::Corrupt { field: "event", value: other.to_string() },
    }
}

/// A stable advisory-lock key per source (FNV-1a).
fn lock_key(source: &str) -> i64 {
    let hash = source.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    i64::from_ne_bytes(hash.to_ne_bytes())
}
