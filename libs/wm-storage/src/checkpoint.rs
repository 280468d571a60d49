//! The checkpoints of a SQLite file's WAL, away from its [`Writer`]'s
//! turns. By default SQLite checkpoints in the commit that takes the WAL
//! past 1,000 pages, so the writer copies pages into the database file
//! while every other writer waits for its turn: under ingest's load, some
//! 60 % of a commit's time (docs/performance.md §1). Here a connection of
//! its own copies them a few times a second, beside the writes.
//!
//! A WAL only starts over from its beginning at a write that finds all of
//! it copied and no reader still reading from it. Pages appended meanwhile
//! prevent the first: so when the WAL holds more than [`RESTART_AT`] pages
//! and some were left, the checkpoint also runs once in a turn of the
//! writer. Readers prevent both: a checkpoint that does not wait cannot
//! copy past the oldest reader's snapshot, and a write does not wait for
//! the readers that started before the copy was complete. With readers
//! always at work (the API's, at some 2,000 uplinks a second) the WAL grew
//! to 10 GiB (docs/performance.md §5). So past the length its file is cut
//! back to (`journal_size_limit`, set by db.rs from
//! `database.wal_limit_mib`), a turn of the writer waits for those readers,
//! up to [`WAIT_FOR_READERS`] per attempt, copies the rest and leaves the
//! WAL to start over; readers that start meanwhile read the database file.
//! A reader longer than that (an export) is not waited for again before
//! [`WAIT_AGAIN_AFTER`]. Each such turn copies what was appended while it
//! waited for the writer, some 40–100 ms under ingest's load: the longer
//! the WAL, the rarer they are (docs/performance.md §1).

use std::{
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use sqlx::{
    ConnectOptions, Connection, SqliteConnection,
    sqlite::{SqliteConnectOptions, SqliteExecutor},
};
use tokio::{runtime::Handle, sync::Notify, task::JoinHandle, time::Instant};

use crate::{DatabaseSettings, Writer};

/// How often the WAL is checkpointed.
const EVERY: Duration = Duration::from_millis(250);

/// The pages in the WAL past which a checkpoint that left some takes a
/// turn of the writer too: 16 MiB of SQLite's default 4 KiB pages. A WAL
/// four times as long measured no faster (docs/performance.md §1).
const RESTART_AT: i64 = 4_096;

/// How long one attempt to start the WAL over waits for readers at most,
/// holding the writer meanwhile. The API's reads take a few milliseconds.
const WAIT_FOR_READERS: Duration = Duration::from_millis(50);

/// The attempts in one turn. SQLite reads each reader's mark once per
/// checkpoint: when newer readers take over a mark it waits on, they hold
/// it for as long as they keep overlapping, and the attempt gives up. The
/// next one reads the marks anew, and waits only for the older readers.
const ATTEMPTS: usize = 3;

/// How long after a turn that ran out of attempts the next one may start:
/// a reader that long (an export) holds the writer back for some 7 % of its
/// time at most.
const WAIT_AGAIN_AFTER: Duration = Duration::from_secs(2);

/// The task that checkpoints one file's WAL, until stopped.
#[derive(Debug, Default)]
pub(crate) struct Checkpoints {
    stop: Notify,
    task: Mutex<Option<JoinHandle<()>>>,
}

impl Checkpoints {
    /// Starts checkpointing `writer`'s file, opened with `options`.
    pub(crate) fn start(self: &Arc<Self>, runtime: &Handle, writer: Writer, options: Arc<SqliteConnectOptions>) {
        let task = runtime.spawn(run(self.clone(), writer, options));
        *self.task.lock().unwrap_or_else(PoisonError::into_inner) = Some(task);
    }

    /// Stops the task and waits until its connection is closed.
    pub(crate) async fn stop(&self) {
        self.stop.notify_one();
        let task = self.task.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(task) = task {
            let _ = task.await;
        }
    }
}

async fn run(checkpoints: Arc<Checkpoints>, writer: Writer, options: Arc<SqliteConnectOptions>) {
    // A file gone (a test's folder deleted) is not made again empty.
    let options = (*options).clone().create_if_missing(false);
    // With the pages past which a turn starts the WAL over.
    let mut connection: Option<(SqliteConnection, i64)> = None;
    // Said once per run of failures, not four times a second.
    let mut failing = false;
    let mut may_wait_from = Instant::now();
    // The WAL's length when a turn last left it to start over: until a
    // write does, a checkpoint finds it that long, with nothing to wait for.
    let mut left_at = None;
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = checkpoints.stop.notified() => break,
            _ = tick.tick() => {}
        }
        let pages = match connection.as_mut() {
            Some((connection, wait_at)) => passive(connection).await.map(|pages| (pages, *wait_at)),
            None => match open(&options).await {
                Ok(opened) => {
                    let (connection, wait_at) = connection.insert(opened);
                    passive(connection).await.map(|pages| (pages, *wait_at))
                }
                Err(e) => Err(e),
            },
        };
        let (pages, wait_at) = match pages {
            Ok(pages) => pages,
            Err(e) => {
                if !failing {
                    tracing::warn!(error = %e, "cannot checkpoint the SQLite WAL; trying again");
                }
                (failing, connection) = (true, None);
                continue;
            }
        };
        failing = false;
        if pages.in_wal > wait_at && left_at != Some(pages.in_wal) && Instant::now() >= may_wait_from {
            let turn = writer.turn().await;
            match restart(turn.pool()).await {
                Ok(Some(in_wal)) => left_at = Some(in_wal),
                Ok(None) => may_wait_from = Instant::now() + WAIT_AGAIN_AFTER,
                Err(e) => tracing::warn!(error = %e, "cannot start the SQLite WAL over in a turn; trying again"),
            }
        } else if pages.in_wal > RESTART_AT && pages.copied < pages.in_wal {
            let turn = writer.turn().await;
            if let Err(e) = passive(turn.pool()).await {
                tracing::warn!(error = %e, "cannot checkpoint the SQLite WAL in a turn; trying again");
            }
        }
    }
    if let Some((connection, _)) = connection {
        let _ = connection.close().await;
    }
}

/// A connection of the checkpoints' own, and the pages in the WAL past
/// which a turn of the writer starts it over: the length its file is cut
/// back to then, as the pool was opened with (db.rs), or the default
/// `database.wal_limit_mib` for a pool opened without one.
async fn open(options: &SqliteConnectOptions) -> Result<(SqliteConnection, i64), sqlx::Error> {
    let mut connection = options.connect().await?;
    let limit: i64 = sqlx::query_scalar("PRAGMA journal_size_limit").fetch_one(&mut connection).await?;
    let page_size: i64 = sqlx::query_scalar("PRAGMA page_size").fetch_one(&mut connection).await?;
    let default = i64::try_from(DatabaseSettings::default().wal_limit_mib << 20).unwrap_or(i64::MAX);
    let limit = if limit > 0 { limit } else { default };
    Ok((connection, limit / page_size.max(512)))
}

/// Copies into the database file what of the WAL no reader still needs,
/// without waiting for readers or writers.
async fn passive<'c>(connection: impl SqliteExecutor<'c>) -> Result<Pages, sqlx::Error> {
    let (_busy, in_wal, copied): (i64, i64, i64) =
        sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)").fetch_one(connection).await?;
    Ok(Pages { in_wal, copied })
}

/// Copies the whole WAL into the database file and leaves it to start over
/// at the next write, waiting for the readers of older snapshots to finish;
/// the pages in the WAL if that was done in time. `pool` is the writer's,
/// in a turn: its one connection, no write under way.
async fn restart(pool: &sqlx::SqlitePool) -> Result<Option<i64>, sqlx::Error> {
    let mut connection = pool.acquire().await?;
    let busy_timeout: i64 = sqlx::query_scalar("PRAGMA busy_timeout").fetch_one(&mut *connection).await?;
    // Numbers only, in the statements made here.
    let waiting = sqlx::AssertSqlSafe(format!("PRAGMA busy_timeout = {}", WAIT_FOR_READERS.as_millis()));
    sqlx::query(waiting).execute(&mut *connection).await?;
    let mut done = Ok(None);
    for _ in 0..ATTEMPTS {
        done = sqlx::query_as("PRAGMA wal_checkpoint(RESTART)")
            .fetch_one(&mut *connection)
            .await
            .map(|(busy, in_wal, _): (i64, i64, i64)| (busy == 0).then_some(in_wal));
        if !matches!(done, Ok(None)) {
            break;
        }
    }
    let restored = sqlx::AssertSqlSafe(format!("PRAGMA busy_timeout = {busy_timeout}"));
    sqlx::query(restored).execute(&mut *connection).await?;
    done
}

/// What a checkpoint found and did.
struct Pages {
    /// Since the WAL last started over.
    in_wal: i64,
    /// Of those, the pages now in the database file.
    copied: i64,
}
