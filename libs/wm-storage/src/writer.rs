//! The one writer of a SQLite file: the lock that takes this process's
//! writes to it in turns, the one connection they write through, and what
//! each place in the source that takes a turn costs (turns, time waited,
//! time held), which
//! `wmeter_db_writer_*` exposes. In the embedded mode every service writes
//! to the same file, so this is where the writes queue (docs/performance.md
//! §1), and the time held per place says which of them the others wait for.

use std::{
    collections::HashMap,
    panic::Location,
    path::PathBuf,
    sync::{Arc, LazyLock, Mutex, MutexGuard},
    time::{Duration, Instant},
};

use sqlx::{SqlitePool, sqlite::SqlitePoolOptions};
use tokio::sync::OwnedMutexGuard;

use crate::checkpoint::Checkpoints;

/// The lock that serializes this process's writes to one SQLite file.
/// SQLite admits one writer at a time, and a second one waits in its busy
/// handler, which sleeps (1 ms, then longer, up to 100 ms) and polls: under
/// a steady load the CPUs idle while writers sleep. Queued on this lock
/// instead, the next writer starts the moment the last one commits.
///
/// Every turn writes through the same connection ([`Turn::pool`]). SQLite
/// empties a connection's page cache whenever another connection wrote
/// since its last transaction, so writes spread over a pool's connections
/// each started cold, reading back from the WAL and the file the index and
/// table pages the last turn had just written; one connection keeps them.
/// It commits without checkpointing the WAL: [`Checkpoints`] does that on
/// a connection of its own.
#[derive(Clone, Debug)]
pub struct Writer {
    lock: Arc<tokio::sync::Mutex<()>>,
    /// A pool of that one connection, which turns take one at a time and
    /// which stays open until [`Writer::close`].
    connection: SqlitePool,
    checkpoints: Arc<Checkpoints>,
}

/// The writer of one file, with the [`Db`](crate::Db) pools open on it.
struct Registered {
    writer: Writer,
    pools: usize,
}

/// The writers of the files open in this process.
static WRITERS: LazyLock<Mutex<HashMap<PathBuf, Registered>>> = LazyLock::new(Default::default);

fn writers() -> MutexGuard<'static, HashMap<PathBuf, Registered>> {
    WRITERS.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Writer {
    /// The writer of `pool`'s file, shared by every pool on that file.
    pub fn of(pool: &SqlitePool) -> Writer {
        Writer::registered(pool, 0)
    }

    /// [`Writer::of`], counting `pool` among those open on its file until
    /// [`Writer::close`]: `Db::connect`.
    pub(crate) fn opened(pool: &SqlitePool) {
        Writer::registered(pool, 1);
    }

    fn registered(pool: &SqlitePool, more: usize) -> Writer {
        let file = pool.connect_options().get_filename().to_path_buf();
        let mut writers = writers();
        let entry = writers.entry(file).or_insert_with(|| Registered { writer: Writer::open(pool), pools: 0 });
        entry.pools += more;
        entry.writer.clone()
    }

    /// A writer of its own for `pool`'s file. Its connection leaves the
    /// WAL's checkpoints to [`Checkpoints`], away from the turns, when a
    /// runtime is there to run them; otherwise it checkpoints in its
    /// commits, as SQLite does by default.
    fn open(pool: &SqlitePool) -> Writer {
        let runtime = tokio::runtime::Handle::try_current().ok();
        let options = (*pool.connect_options()).clone();
        let options = if runtime.is_some() { options.pragma("wal_autocheckpoint", "0") } else { options };
        let connection = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(0)
            .idle_timeout(None)
            .max_lifetime(None)
            .test_before_acquire(pool.options().get_test_before_acquire())
            .acquire_timeout(pool.options().get_acquire_timeout())
            .connect_lazy_with(options);
        let writer = Writer { lock: Arc::default(), connection, checkpoints: Arc::default() };
        if let Some(runtime) = runtime {
            writer.checkpoints.start(&runtime, writer.clone(), pool.connect_options());
        }
        writer
    }

    /// Counts `pool` out of those open on its file, once it is closed; the
    /// last one out closes the writer, and a pool opened on the file later
    /// gets a writer of its own.
    pub(crate) async fn close(pool: &SqlitePool) {
        let file = pool.connect_options().get_filename().to_path_buf();
        let writer = {
            let mut writers = writers();
            let last = writers.get_mut(&file).is_some_and(|entry| {
                entry.pools = entry.pools.saturating_sub(1);
                entry.pools == 0
            });
            if last { writers.remove(&file).map(|entry| entry.writer) } else { None }
        };
        if let Some(writer) = writer {
            writer.checkpoints.stop().await;
            writer.connection.close().await;
        }
    }

    /// Waits for a turn, counted against the caller's place in the source.
    #[track_caller]
    pub fn turn(&self) -> impl Future<Output = Turn> + Send + 'static {
        self.turn_for(Location::caller())
    }

    /// Waits for a turn, counted against `site`.
    pub(crate) fn turn_for(&self, site: &'static Location<'static>) -> impl Future<Output = Turn> + Send + 'static {
        let (lock, connection) = (self.lock.clone(), self.connection.clone());
        async move {
            let asked = Instant::now();
            let guard = lock.lock_owned().await;
            Turn { _guard: guard, connection, site, waited: asked.elapsed(), since: Instant::now() }
        }
    }
}

/// A turn at the writer, until dropped.
#[derive(Debug)]
pub struct Turn {
    _guard: OwnedMutexGuard<()>,
    connection: SqlitePool,
    site: &'static Location<'static>,
    waited: Duration,
    since: Instant,
}

impl Turn {
    /// The writer's connection, for this turn's writes: a `BEGIN IMMEDIATE`
    /// or a statement on its own.
    pub fn pool(&self) -> &SqlitePool {
        &self.connection
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        let held = self.since.elapsed();
        let mut sites = sites();
        let spent = sites.entry(self.site).or_default();
        spent.turns += 1;
        spent.waited += self.waited;
        spent.held += held;
    }
}

/// What one place in the source spent at the writers since the process
/// started (all files together: a deployment has one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spent {
    pub turns: u64,
    /// From asking for each turn to getting it.
    pub waited: Duration,
    /// From getting each turn to giving it back (a transaction's commit
    /// included).
    pub held: Duration,
}

/// Every place that took a turn, as `file:line`, with what it spent, in
/// that order.
pub fn spent_by_site() -> Vec<(String, Spent)> {
    let mut all: Vec<(String, Spent)> =
        sites().iter().map(|(site, spent)| (format!("{}:{}", site.file(), site.line()), *spent)).collect();
    all.sort_by(|a, b| a.0.cmp(&b.0));
    all
}

fn sites() -> MutexGuard<'static, HashMap<&'static Location<'static>, Spent>> {
    static SITES: LazyLock<Mutex<HashMap<&'static Location<'static>, Spent>>> = LazyLock::new(Default::default);
    // Plain sums: a panic elsewhere cannot leave one half updated.
    SITES.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_turn_is_counted_against_the_line_that_took_it_with_the_time_it_waited_and_held() {
        let pool = SqlitePool::connect_lazy("sqlite::memory:").expect("an in-memory database");
        let writer = Writer::of(&pool);
        let first = writer.turn().await;
        let line = line!() - 1;
        let site = format!("{}:{line}", file!());
        let second = tokio::spawn({
            let writer = writer.clone();
            async move { writer.turn().await }
        });
        tokio::time::sleep(Duration::from_millis(30)).await;
        drop(first);
        let second = second.await.expect("the second turn");
        drop(second);
        let spent = spent_by_site();
        let first = spent.iter().find(|(s, _)| *s == site).map(|(_, spent)| *spent).expect("the first turn's line");
        assert_eq!(first.turns, 1);
        assert!(first.held >= Duration::from_millis(30), "{first:?}");
        let waited: Duration =
            spent.iter().filter(|(s, _)| *s != site && s.starts_with(file!())).map(|(_, x)| x.waited).sum();
        assert!(waited >= Duration::from_millis(25), "the second turn waited for the first: {spent:?}");
    }
}
