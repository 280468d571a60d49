//! The transactional outbox (DESIGN §4). A service stages its events in
//! the transaction that changes its state, so either both happen or
//! neither; its [`Relay`] then publishes them to the log in staging order
//! and deletes them. Delivery is at-least-once: a relay stopped between
//! publishing and deleting publishes that batch again.
//!
//! Each service relays only its own `source`, so services sharing one
//! database (the embedded mode) never publish each other's events. On
//! PostgreSQL, replicas of a service take turns through an advisory lock,
//! so one batch is not published by two of them at once.

use std::{sync::Arc, time::Duration};

use chrono::Utc;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use wm_proto::Envelope;
use wm_storage::{Db, Migrations, StorageError, Tx, bulk, query::Bind, with_pool};

use crate::{EventLog, EventLogError, envelopes};

/// The outbox table, applied by each service that stages events.
pub const MIGRATIONS: Migrations = wm_storage::migrations!("outbox" in "migrations/outbox", 1 => "outbox");

/// Rows published per round.
const BATCH: i64 = 500;
/// How often a relay looks for rows when nobody woke it (rows staged by
/// another replica or process).
const IDLE_POLL: Duration = Duration::from_secs(1);

#[derive(Debug, thiserror::Error)]
pub enum OutboxError {
    #[error("outbox storage failed")]
    Storage(#[from] StorageError),
    #[error("a staged event is corrupt")]
    Corrupt(#[from] wm_proto::DecodeError),
    #[error(transparent)]
    Log(#[from] EventLogError),
}

/// Stages `envelopes` for `source`'s relay, in `tx`. Each is published on
/// its payload's topic, with the record key `key`, or its own `device_id`
/// (the partition key of DESIGN §4) when `key` is `None`.
pub async fn stage(tx: &mut Tx, source: &str, key: Option<&str>, envelopes: &[Envelope]) -> Result<(), StorageError> {
    let now = Utc::now().timestamp_millis();
    let traceparent = crate::trace::current_traceparent();
    let mut rows = bulk::Rows::new(4);
    for envelope in envelopes {
        let key = key.unwrap_or(&envelope.device_id);
        let bytes = match &traceparent {
            Some(traceparent) if envelope.correlation_id.is_empty() => {
                envelope.clone().with_correlation_id(traceparent.clone()).to_bytes()
            }
            _ => envelope.to_bytes(),
        };
        rows.push([source.into(), key.into(), Bind::Bytes(bytes), Bind::Int(now)]);
    }
    // In one statement, rows get their `seq` in the order listed.
    bulk::execute(tx, "INSERT INTO event_outbox (source, record_key, envelope, staged_at_ms)", "", rows).await?;
    Ok(())
}

/// Publishes one source's staged events.
#[derive(Clone, Debug)]
pub struct Relay {
    db: Db,
    log: Arc<dyn EventLog>,
    source: &'static str,
    wake: Arc<Notify>,
}

impl Relay {
    pub fn new(db: Db, log: Arc<dyn EventLog>, source: &'static str) -> Self {
        Self { db, log, source, wake: Arc::new(Notify::new()) }
    }

    /// Tells the relay that rows were staged (call it after the commit).
    pub fn wake(&self) {
        self.wake.notify_one();
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
    /// failures are logged and retried.
    pub async fn run(self, stop: CancellationToken) {
        loop {
            if let Err(e) = self.flush().await {
                tracing::warn!(error = ?e, source = self.source, "outbox relay failed, retrying");
            }
            tokio::select! {
                () = stop.cancelled() => return,
                () = self.wake.notified() => {}
                () = tokio::time::sleep(IDLE_POLL) => {}
            }
        }
    }

    /// Publishes up to [`BATCH`] rows, then deletes them.
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
                let published = self.publish_staged().await?;
                tx.commit().await.map_err(StorageError::from)?;
                Ok(published)
            }
        }
    }

    async fn publish_staged(&self) -> Result<usize, OutboxError> {
        let sql = "SELECT seq, record_key, envelope FROM event_outbox WHERE source = $1 ORDER BY seq LIMIT $2";
        let rows: Vec<(i64, String, Vec<u8>)> =
            with_pool!(&self.db, pool => sqlx::query_as(sql).bind(self.source).bind(BATCH).fetch_all(pool).await)
                .map_err(StorageError::from)?;
        if rows.is_empty() {
            return Ok(0);
        }
        let mut records = Vec::with_capacity(rows.len());
        for (_, key, bytes) in &rows {
            records.push(envelopes::record_keyed(&Envelope::from_bytes(bytes)?, key.clone())?);
        }
        self.log.append_batch(records).await?;
        // Exactly the rows published, never a range: sequence numbers are
        // taken at insert but become visible at commit, so a transaction
        // still open during the SELECT can commit a lower `seq` afterwards.
        let mut published = bulk::Rows::new(1);
        rows.iter().for_each(|(seq, ..)| published.push([Bind::Int(*seq)]));
        let mut tx = self.db.begin_write().await?;
        let head = "DELETE FROM event_outbox WHERE seq IN (SELECT column1 FROM (";
        bulk::execute(&mut tx, head, ") AS v)", published).await?;
        tx.commit().await?;
        Ok(rows.len())
    }
}

/// A stable advisory-lock key per source (FNV-1a).
fn lock_key(source: &str) -> i64 {
    let hash = source.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    i64::from_ne_bytes(hash.to_ne_bytes())
}
