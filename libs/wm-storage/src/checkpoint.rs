//! The checkpoints of a SQLite file's WAL, away from its [`Writer`]'s
//! turns. By default SQLite checkpoints in the commit that takes the WAL
//! past 1,000 pages, so the writer copies pages into the database file
//! while every other writer waits for its turn: under ingest's load, some
//! 60 % of a commit's time (docs/performance.md §1). Here a connection of
//! its own copies them a few times a second, beside the writes. A WAL only
//! starts over from its beginning once a checkpoint has copied all of it,
//! which pages appended meanwhile prevent; so when it holds more than
//! [`RESTART_AT`] pages and some were left, the checkpoint also runs once
//! in a turn of the writer, where it completes, and the next write starts
//! the WAL over.

use std::{
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use sqlx::{
    ConnectOptions, Connection, SqliteConnection,
    sqlite::{SqliteConnectOptions, SqliteExecutor},
};
use tokio::{runtime::Handle, sync::Notify, task::JoinHandle};

use crate::Writer;

/// How often the WAL is checkpointed.
const EVERY: Duration = Duration::from_millis(250);

/// The pages in the WAL past which a checkpoint that left some takes a
/// turn of the writer too: 16 MiB of SQLite's default 4 KiB pages. A WAL
/// four times as long measured no faster (docs/performance.md §1).
const RESTART_AT: i64 = 4_096;

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
    let mut connection: Option<SqliteConnection> = None;
    // Said once per run of failures, not four times a second.
    let mut failing = false;
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = checkpoints.stop.notified() => break,
            _ = tick.tick() => {}
        }
        let pages = match connection.as_mut() {
            Some(connection) => passive(connection).await,
            None => match options.connect().await {
                Ok(opened) => passive(connection.insert(opened)).await,
                Err(e) => Err(e),
            },
        };
        let pages = match pages {
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
        if pages.in_wal > RESTART_AT && pages.copied < pages.in_wal {
            let turn = writer.turn().await;
            if let Err(e) = passive(turn.pool()).await {
                tracing::warn!(error = %e, "cannot checkpoint the SQLite WAL in a turn; trying again");
            }
        }
    }
    if let Some(connection) = connection {
        let _ = connection.close().await;
    }
}

/// Copies into the database file what of the WAL no reader still needs,
/// without waiting for readers or writers.
async fn passive<'c>(connection: impl SqliteExecutor<'c>) -> Result<Pages, sqlx::Error> {
    let (_busy, in_wal, copied): (i64, i64, i64) =
        sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)").fetch_one(connection).await?;
    Ok(Pages { in_wal, copied })
}

/// What a checkpoint found and did.
struct Pages {
    /// Since the WAL last started over.
    in_wal: i64,
    /// Of those, the pages now in the database file.
    copied: i64,
}
