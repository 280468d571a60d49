//! The transactional outbox (DESIGN §4). A service stages its events with
//! [`Relay::stage`] in the transaction that changes its state, so either
//! both happen or neither, and calls [`Relay::wake`] after the commit.
//!
//! - When the log is the embedded one, in the service's own database, the
//!   outbox is the log itself: staging appends to it in that transaction,
//!   and waking wakes its consumers. Nothing is copied or deleted.
//! - Otherwise the events wait in the outbox tables, and the relay
//!   publishes them to the log in staging order, then deletes them.
//!   Delivery is at-least-once: a relay stopped between publishing and
//!   deleting publishes that batch again. A staging is one row of
//!   `event_outbox_batch`, its records whole (topic, key, envelope and
//!   headers, worked out when staged; [`staged`]), and the relay publishes
//!   the envelopes' bytes without reading them: an event staged by a newer
//!   build keeps the fields this one does not know, and one no build can
//!   read goes to the log like any other, rather than stopping its relay.
//!   A row that cannot become its records goes whole to the dead letters.
//!   A round takes `event_outbox`'s rows first, one row per event, where
//!   older replicas stage during a rolling upgrade, and the batches once
//!   it is drained, so what they staged before a batch is published
//!   before it. Each service relays only
//!   its own `source`, so services sharing one database never publish
//!   each other's events. On PostgreSQL, replicas of a service take turns
//!   through an advisory lock, so one batch is not published by two of
//!   them at once. There a round takes its rows out in one `DELETE …
//!   RETURNING`, in the lock's transaction, and commits only once the log
//!   has them; and the relay vacuums the tables every [`VACUUM_EVERY`]
//!   events it took out, since each round's scan walks every row deleted
//!   since the last vacuum.

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
use self::tables::{Rows, Table, Taken, taken_out};
use crate::{EventLog, EventLogError, OutgoingRecord, embedded::EmbeddedLog, envelopes};

mod relayed;
pub mod staged;
mod tables;

/// The outbox tables, applied by each service that stages events.
pub const MIGRATIONS: Migrations =
    wm_storage::migrations!("outbox" in "migrations/outbox", 1 => "outbox", 2 => "record", 3 => "batch");

/// How often a relay looks for rows when nobody woke it (rows staged by
/// another replica or process).
const IDLE_POLL: Duration = Duration::from_secs(1);
/// How long a stopping relay publishes what was staged before the stop.
const LAST_FLUSH: Duration = Duration::from_secs(5);
/// How often a relay reads how long its oldest row has waited.
pub const OLDEST_EVERY: Duration = Duration::from_secs(5);
/// Events a relay takes out of the tables on PostgreSQL between two
/// `VACUUM`s of them. Autovacuum visits a database once a minute at most;
/// until a vacuum, every round's index scan reads the entries of every row
/// deleted before it (docs/performance.md §2): a minute of outbox traffic
/// at 16,000 rows a second made each scan read some 3,000 pages. Counted
/// in events, not rows, since a batch row's dead bytes (out of line, some
/// 200 bytes an event) are most of what a vacuum frees now.
pub const VACUUM_EVERY: usize = 20_000;

/// A PostgreSQL round's first statement: the source's advisory lock, and
/// no bitmap scans for the rest of its transaction. Planned on statistics
/// from when the table was nearly empty, as a relay's table often is, a
/// round's `ORDER BY seq LIMIT` read every row of its source through a
/// bitmap scan and sorted them, instead of the first few through the index
/// on `(source, seq)`: under a backlog each round grew slower than the
/// last, up to 27 s for one statement, every event behind it held back
/// (docs/performance.md §2).
const ROUND_PLAN: &str = "SELECT pg_try_advisory_xact_lock($1), set_config('enable_bitmapscan', 'off', true)";

#[derive(Debug, thiserror::Error)]
pub enum OutboxError {
    #[error("outbox storage failed")]
    Storage(#[from] StorageError),
    #[error(transparent)]
    Log(#[from] EventLogError),
}

/// Stages `records` for `source`'s relay in `event_outbox_batch`: one row
/// per [`staged::EVENTS_PER_ROW`] records, each record whole.
async fn stage_rows(tx: &mut Tx, source: &str, records: Vec<OutgoingRecord>) -> Result<(), StorageError> {
    let now = Utc::now().timestamp_millis();
    let mut rows = bulk::Rows::new(4);
    for (bytes, events) in staged::encode(records) {
        rows.push([
            source.into(),
            Bind::Bytes(bytes),
            Bind::Int(i64::try_from(events).unwrap_or(i64::MAX)),
            Bind::Int(now),
        ]);
    }
    // In one statement, rows get their `seq` in the order listed.
    let head = "INSERT INTO event_outbox_batch (source, records, events, staged_at_ms)";
    bulk::execute(tx, head, "", rows).await?;
    Ok(())
}

/// One source's outbox: stages its events, and publishes them when they
/// wait in the tables.
#[derive(Clone, Debug)]
pub struct Relay {
    db: Db,
    log: Arc<dyn EventLog>,
    source: &'static str,
    wake: Arc<Notify>,
    /// The log, when it lives in `db`: the outbox is the log itself.
    direct: Option<EmbeddedLog>,
    /// Events taken out since this relay last vacuumed the tables.
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
    /// Returns how many events were taken out.
    pub async fn flush(&self) -> Result<usize, OutboxError> {
        let mut total = 0;
        loop {
            let (taken, full) = self.publish_round().await?;
            total += taken.iter().map(|row| row.events).sum::<usize>();
            if !full {
                return Ok(total);
            }
        }
    }

    /// Flushes whenever woken, and every second anyway, until `stop`;
    /// failures are logged and retried; once stopped, it flushes once more
    /// ([`LAST_FLUSH`]). Meanwhile it reads, every [`OLDEST_EVERY`], how
    /// long the oldest row waiting for it has waited, for the metrics: on
    /// its own, so it still climbs while the relay publishes nothing. When
    /// the outbox is the log, it flushes what an older build left in the
    /// tables, once, and returns.
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
                () = stop.cancelled() => return self.last_flush().await,
                () = self.wake.notified() => {}
                () = tokio::time::sleep(IDLE_POLL) => {}
            }
        }
    }

    /// Publishes, once more and for [`LAST_FLUSH`] at most, what was staged
    /// before the stop: what a stopping replica leaves waits for another
    /// relay, and a replica of the release before does not read the batch
    /// table (docs/operations.md, "Upgrades").
    async fn last_flush(&self) {
        match tokio::time::timeout(LAST_FLUSH, self.flush()).await {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => tracing::warn!(error = ?e, source = self.source, "the outbox relay's last flush failed"),
            Err(_) => tracing::warn!(source = self.source, "the outbox relay's last flush ran out of time"),
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
    /// epoch), if any: of each table, the first by `seq`, through its index.
    async fn oldest_staged(&self) -> Result<Option<i64>, StorageError> {
        let mut oldest = None;
        for table in Table::ALL {
            let staged: Option<i64> = with_pool!(&self.db, pool => sqlx::query_scalar(table.oldest())
                .persistent(false)
                .bind(self.source)
                .fetch_optional(pool)
                .await)?;
            oldest = oldest.into_iter().chain(staged).min();
        }
        Ok(oldest)
    }

    /// Publishes a round's rows, and deletes them: those of
    /// `event_outbox` first, where older replicas stage during a rolling
    /// upgrade, and only once it is drained the batches, so that what an
    /// older replica staged before a batch is published before it. Returns
    /// what it took out, and whether a table had more.
    async fn publish_round(&self) -> Result<(Vec<Taken>, bool), OutboxError> {
        match &self.db {
            // One process owns a SQLite database, and the embedded log
            // writes to it too: holding a transaction across the publish
            // would lock the log out.
            Db::Sqlite(_) => self.publish_staged().await,
            Db::Postgres(pool) => {
                let mut tx = pool.begin().await.map_err(StorageError::from)?;
                // With the lock, and in the same statement: no bitmap scans
                // in this transaction (`ROUND_PLAN`).
                let (locked, _): (bool, String) = sqlx::query_as(ROUND_PLAN)
                    .bind(lock_key(self.source))
                    .fetch_one(&mut *tx)
                    .await
                    .map_err(StorageError::from)?;
                if !locked {
                    return Ok((Vec::new(), false));
                }
                // Taken out and published in one transaction: if the log
                // refuses them, the rollback puts them back, and releases
                // the lock before the next round asks for it.
                let (taken, full) = match self.take_out_and_publish(&mut tx).await {
                    Ok(round) => round,
                    Err(e) => {
                        if let Err(rollback) = tx.rollback().await {
                            tracing::warn!(error = %rollback, source = self.source, "outbox round: rollback failed");
                        }
                        return Err(e);
                    }
                };
                tx.commit().await.map_err(StorageError::from)?;
                self.relayed(&taken);
                self.vacuum_after(pool, &taken).await;
                Ok((taken, full))
            }
        }
    }

    /// PostgreSQL's round in `tx`: takes a round's rows out and publishes
    /// them. The statements are planned at each round, never once for all:
    /// a plan made while a table was empty scans it whole, and between two
    /// vacuums it holds every row deleted since (docs/performance.md §2).
    async fn take_out_and_publish(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    ) -> Result<(Vec<Taken>, bool), OutboxError> {
        let mut rows = vec![Rows::Events(taken_out(tx, self.source, Table::Events).await?)];
        if !rows[0].is_full() {
            rows.push(Rows::Batches(taken_out(tx, self.source, Table::Batches).await?));
        }
        let full = rows.iter().any(Rows::is_full);
        Ok((self.publish(rows).await?, full))
    }

    /// SQLite's round: reads a round's rows, publishes them, then deletes
    /// exactly those.
    async fn publish_staged(&self) -> Result<(Vec<Taken>, bool), OutboxError> {
        let mut rows = vec![Rows::Events(tables::read(&self.db, self.source, Table::Events).await?)];
        if !rows[0].is_full() {
            rows.push(Rows::Batches(tables::read(&self.db, self.source, Table::Batches).await?));
        }
        if rows.iter().all(Rows::is_empty) {
            return Ok((Vec::new(), false));
        }
        let full = rows.iter().any(Rows::is_full);
        let taken = self.publish(rows).await?;
        // Exactly the rows published, never a range: sequence numbers are
        // taken at insert but become visible at commit, so a transaction
        // still open during the SELECT can commit a lower `seq` afterwards.
        let mut tx = self.db.begin_write().await?;
        for &table in Table::ALL {
            let mut published = bulk::Rows::new(1);
            taken.iter().filter(|row| row.table == table).for_each(|row| published.push([Bind::Int(row.seq)]));
            if !published.is_empty() {
                bulk::execute(&mut tx, table.delete_listed(), ") AS v)", published).await?;
            }
        }
        tx.commit().await?;
        self.relayed(&taken);
        Ok((taken, full))
    }

    /// Counts a round's events, taken out and published, and its rows set
    /// aside as dead letters, for the metrics.
    fn relayed(&self, taken: &[Taken]) {
        let staged = taken.iter().flat_map(|row| std::iter::repeat_n(row.staged_at_ms, row.events));
        relayed::count(self.source, staged, Utc::now().timestamp_millis());
        relayed::dead_lettered(self.source, taken.iter().filter(|row| row.dead).count());
    }

    /// Appends staged rows' records to the log, each table's in staging
    /// order, as they were staged: the envelopes are not read, so one this
    /// build cannot read goes to the log whole, where each consumer decides
    /// (a projection skips it, [`envelopes::decode`]).
    async fn publish(&self, rows: Vec<Rows>) -> Result<Vec<Taken>, OutboxError> {
        let (mut taken, mut records) = (Vec::new(), Vec::new());
        rows.into_iter().for_each(|rows| rows.split_into(&mut taken, &mut records));
        if !records.is_empty() {
            self.log.append_batch(records).await?;
        }
        Ok(taken)
    }

    /// Vacuums the tables once this relay has taken [`VACUUM_EVERY`]
    /// events out of them since the last time. A failure is logged: the
    /// rows are published, and the next vacuum, or autovacuum, does the
    /// work.
    async fn vacuum_after(&self, pool: &sqlx::PgPool, taken: &[Taken]) {
        let events: usize = taken.iter().map(|row| row.events).sum();
        if self.taken_out.fetch_add(events, Ordering::Relaxed) + events < VACUUM_EVERY {
            return;
        }
        self.taken_out.store(0, Ordering::Relaxed);
        // Outside any transaction. Another replica's vacuum under way is
        // skipped, not waited for; and a table is never truncated, which
        // waits up to 5 s for a lock that every staging transaction holds,
        // then takes it from them.
        let vacuum = "VACUUM (SKIP_LOCKED, INDEX_CLEANUP ON, TRUNCATE OFF) event_outbox, event_outbox_batch";
        if let Err(e) = sqlx::raw_sql(vacuum).execute(pool).await {
            tracing::warn!(error = %e, source = self.source, "vacuuming the outbox failed");
        }
    }
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
