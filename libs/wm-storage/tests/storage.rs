//! Storage behaviour, asserted on SQLite and on PostgreSQL alike.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

use sqlx::Row;
use wm_storage::{Backend, DatabaseSettings, Db, Migration, Migrations, StorageError};
use wm_test_support::TestDb;

const THINGS: Migrations = Migrations {
    component: "things",
    sqlite: &[
        Migration { version: 1, name: "things", sql: "CREATE TABLE things (id TEXT PRIMARY KEY, n INTEGER NOT NULL);" },
        Migration {
            version: 2,
            name: "index",
            sql: "CREATE INDEX things_n ON things (n); INSERT INTO things VALUES ('a', 1);",
        },
    ],
    postgres: &[
        Migration { version: 1, name: "things", sql: "CREATE TABLE things (id TEXT PRIMARY KEY, n BIGINT NOT NULL);" },
        Migration {
            version: 2,
            name: "index",
            sql: "CREATE INDEX things_n ON things (n); INSERT INTO things VALUES ('a', 1);",
        },
    ],
};

/// A second component migrating the same database keeps its own versions.
const OTHER: Migrations = Migrations {
    component: "other",
    sqlite: &[Migration { version: 1, name: "other", sql: "CREATE TABLE other (x INTEGER);" }],
    postgres: &[Migration { version: 1, name: "other", sql: "CREATE TABLE other (x BIGINT);" }],
};

async fn count_things(db: &Db) -> i64 {
    let sql = "SELECT COUNT(*) FROM things";
    match db {
        Db::Sqlite(p) => sqlx::query(sql).fetch_one(p).await.unwrap().get(0),
        Db::Postgres(p) => sqlx::query(sql).fetch_one(p).await.unwrap().get(0),
    }
}

#[tokio::test]
async fn migrations_apply_once_per_component_on_both_backends() {
    for test_db in TestDb::each().await {
        let db = test_db.db();
        db.migrate(&THINGS).await.unwrap();
        db.migrate(&THINGS).await.unwrap();
        db.migrate(&OTHER).await.unwrap();
        assert_eq!(count_things(db).await, 1, "{:?}: migration 2 ran exactly once", db.backend());
        db.ping().await.unwrap();
    }
}

#[tokio::test]
async fn edited_migration_is_refused_on_both_backends() {
    const EDITED: Migrations = Migrations {
        component: "things",
        sqlite: &[Migration { version: 1, name: "things", sql: "CREATE TABLE things (id TEXT);" }, THINGS.sqlite[1]],
        postgres: &[
            Migration { version: 1, name: "things", sql: "CREATE TABLE things (id TEXT);" },
            THINGS.postgres[1],
        ],
    };
    for test_db in TestDb::each().await {
        test_db.migrate(&THINGS).await.unwrap();
        let err = test_db.migrate(&EDITED).await.unwrap_err();
        assert!(matches!(err, StorageError::ChecksumMismatch { version: 1, .. }), "{err:?}");
    }
}

#[tokio::test]
async fn the_previous_release_runs_on_a_schema_its_successor_expanded() {
    const EXPANDED: Migrations = Migrations {
        component: "things",
        sqlite: &[
            THINGS.sqlite[0],
            THINGS.sqlite[1],
            Migration { version: 3, name: "label", sql: "ALTER TABLE things ADD COLUMN label TEXT;" },
        ],
        postgres: &[
            THINGS.postgres[0],
            THINGS.postgres[1],
            Migration { version: 3, name: "label", sql: "ALTER TABLE things ADD COLUMN label TEXT;" },
        ],
    };
    for test_db in TestDb::each().await {
        let db = test_db.db();
        db.migrate(&EXPANDED).await.unwrap();
        db.migrate(&THINGS).await.unwrap();
        let insert = "INSERT INTO things (id, n) VALUES ('b', 2)";
        wm_storage::with_pool!(db, pool => sqlx::query(insert).execute(pool).await.map(|_| ())).unwrap();
        assert_eq!(count_things(db).await, 2, "{:?}: the previous release writes as it always did", db.backend());
    }
}

#[tokio::test]
async fn a_failing_migration_leaves_nothing_half_applied() {
    const BROKEN: Migrations = Migrations {
        component: "broken",
        sqlite: &[Migration { version: 1, name: "broken", sql: "CREATE TABLE half (x INTEGER); SELEKT nonsense;" }],
        postgres: &[Migration { version: 1, name: "broken", sql: "CREATE TABLE half (x BIGINT); SELEKT nonsense;" }],
    };
    for test_db in TestDb::each().await {
        let err = test_db.migrate(&BROKEN).await.unwrap_err();
        assert!(matches!(err, StorageError::Migration { version: 1, .. }), "{err:?}");
        let exists = match test_db.db() {
            Db::Sqlite(p) => sqlx::query("SELECT COUNT(*) FROM sqlite_master WHERE name = 'half'")
                .fetch_one(p)
                .await
                .unwrap()
                .get::<i64, _>(0),
            Db::Postgres(p) => sqlx::query("SELECT COUNT(*) FROM pg_tables WHERE tablename = 'half'")
                .fetch_one(p)
                .await
                .unwrap()
                .get::<i64, _>(0),
        };
        assert_eq!(exists, 0, "{:?}: the failed migration was rolled back", test_db.backend());
    }
}

/// PostgreSQL breaks a deadlock by aborting one side. When that side is a
/// migration (here: it holds `b` and waits for `a`, while another session
/// holds `a` and asks for `b`), the migration is tried again and applies
/// once.
#[tokio::test]
async fn a_migration_aborted_to_break_a_deadlock_is_tried_again() {
    const TWO_TABLES: Migrations = Migrations {
        component: "deadlock",
        sqlite: &[],
        postgres: &[
            Migration { version: 1, name: "tables", sql: "CREATE TABLE a (x BIGINT); CREATE TABLE b (x BIGINT);" },
            Migration {
                version: 2,
                name: "both",
                sql: "LOCK TABLE b IN ACCESS EXCLUSIVE MODE; LOCK TABLE a IN ACCESS EXCLUSIVE MODE; \
                      INSERT INTO a VALUES (2);",
            },
        ],
    };
    let Some(test_db) = TestDb::postgres().await else { return };
    let pool = test_db.db().postgres().unwrap().clone();
    test_db.migrate(&Migrations { postgres: &TWO_TABLES.postgres[..1], ..TWO_TABLES }).await.unwrap();
    let mut other = pool.begin().await.unwrap();
    sqlx::query("LOCK TABLE a IN ACCESS SHARE MODE").execute(&mut *other).await.unwrap();
    let db = test_db.db().clone();
    let migration = tokio::spawn(async move { db.migrate(&TWO_TABLES).await });
    // Once the migration holds `b` and waits for `a`, ask for `b`: PostgreSQL
    // finds the cycle after its deadlock_timeout and aborts the migration,
    // which waited first.
    let waiting = "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation \
                   WHERE c.relname = 'a' AND NOT l.granted";
    wm_test_support::eventually("the migration waits for a", || async {
        (sqlx::query_scalar::<_, i64>(waiting).fetch_one(&pool).await.unwrap() > 0).then_some(())
    })
    .await;
    sqlx::query("LOCK TABLE b IN ACCESS SHARE MODE").execute(&mut *other).await.unwrap();
    other.commit().await.unwrap();
    migration.await.unwrap().unwrap();
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM a").fetch_one(&pool).await.unwrap();
    assert_eq!(rows, 1, "applied once");
}

#[tokio::test]
async fn sqlite_s_wal_shrinks_back_to_64_mib_once_a_burst_is_checkpointed() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("wm.db");
    let db = Db::connect(&DatabaseSettings::with_url(format!("sqlite://{}", file.display()))).await.unwrap();
    let pool = db.sqlite().unwrap();
    sqlx::query("CREATE TABLE blobs (b BLOB)").execute(pool).await.unwrap();
    // 80 MiB in one transaction: the WAL cannot be checkpointed before it ends.
    let burst = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 80000) \
                 INSERT INTO blobs SELECT randomblob(1024) FROM n";
    sqlx::query(burst).execute(pool).await.unwrap();
    let wal = || std::fs::metadata(dir.path().join("wm.db-wal")).unwrap().len() >> 20;
    assert!(wal() >= 80, "the burst is in the WAL: {} MiB", wal());
    // The commit checkpointed it; the next write starts the WAL over.
    sqlx::query("INSERT INTO blobs VALUES (1)").execute(pool).await.unwrap();
    assert!(wal() <= 64, "{} MiB", wal());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_writer_s_wal_is_checkpointed_beside_its_turns_and_starts_over() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("wm.db");
    let db = Db::connect(&DatabaseSettings::with_url(format!("sqlite://{}", file.display()))).await.unwrap();
    sqlx::query("CREATE TABLE blobs (b BLOB)").execute(db.sqlite().unwrap()).await.unwrap();
    // The WAL's checkpoint sequence number (bytes 12..16 of its header)
    // counts the times it started over.
    let restarts = || {
        let mut header = [0; 16];
        std::io::Read::read_exact(&mut std::fs::File::open(dir.path().join("wm.db-wal")).unwrap(), &mut header)
            .unwrap();
        u32::from_be_bytes(header[12..16].try_into().unwrap())
    };
    let mut tx = db.begin_write().await.unwrap();
    let burst = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 24000) \
                 INSERT INTO blobs SELECT randomblob(1024) FROM n";
    wm_storage::execute!(&mut tx, burst).unwrap();
    tx.commit().await.unwrap();
    let (before, file_before) = (restarts(), std::fs::metadata(&file).unwrap().len());
    assert!(file_before < 1 << 20, "the commit did not copy the burst into the file: {file_before} bytes");

    let waited = std::time::Instant::now();
    while restarts() == before {
        assert!(waited.elapsed() < std::time::Duration::from_secs(30), "the WAL never started over");
        let mut tx = db.begin_write().await.unwrap();
        wm_storage::execute!(&mut tx, "INSERT INTO blobs VALUES (1)").unwrap();
        tx.commit().await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let copied = std::fs::metadata(&file).unwrap().len();
    assert!(copied >= 24 << 20, "the burst was copied into the file: {copied} bytes");
    db.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_writer_s_wal_starts_over_while_readers_are_always_at_work() {
    // Readers that always overlap, a snapshot older than the last commit held
    // whenever a checkpoint runs: a checkpoint that does not wait for them
    // copies the WAL only up to it, and never starts the WAL over (at some
    // 2,000 uplinks a second the API's readers did that, and the WAL grew
    // to 10 GiB; docs/performance.md §5).
    let largest = largest_wal_while_reading(20, 0).await;
    assert!(largest <= 128, "overlapping readers: the WAL grew to {largest} MiB of the 256 written");
    // Short readers with gaps between them: each checkpoint copies the whole
    // WAL, but a reader that started before it was done still reads from the
    // WAL at the next write, which does not wait for it.
    let largest = largest_wal_while_reading(5, 15).await;
    assert!(largest <= 128, "short readers: the WAL grew to {largest} MiB of the 256 written");
}

/// The largest size in MiB of the WAL, while 256 MiB are written in 1 MiB
/// commits (four times the 64 MiB it is cut back to when it starts over)
/// and two readers, one started 10 ms after the other, each hold a snapshot
/// for `hold_ms` then pause `pause_ms`, over and over.
async fn largest_wal_while_reading(hold_ms: u64, pause_ms: u64) -> u64 {
    use std::{
        sync::atomic::{AtomicBool, Ordering},
        time::Duration,
    };
    let dir = tempfile::tempdir().unwrap();
    let db =
        Db::connect(&DatabaseSettings::with_url(format!("sqlite://{}/wm.db", dir.path().display()))).await.unwrap();
    sqlx::query("CREATE TABLE blobs (b BLOB)").execute(db.sqlite().unwrap()).await.unwrap();
    let reading = std::sync::Arc::new(AtomicBool::new(true));
    let readers: Vec<_> = (0..2u64)
        .map(|i| {
            let (pool, reading) = (db.sqlite().unwrap().clone(), reading.clone());
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(10 * i)).await;
                while reading.load(Ordering::Relaxed) {
                    let mut tx = pool.begin().await.unwrap();
                    sqlx::query("SELECT count(*) FROM blobs WHERE rowid = 1").execute(&mut *tx).await.unwrap();
                    tokio::time::sleep(Duration::from_millis(hold_ms)).await;
                    tx.commit().await.unwrap();
                    tokio::time::sleep(Duration::from_millis(pause_ms)).await;
                }
            })
        })
        .collect();
    let wal = || std::fs::metadata(dir.path().join("wm.db-wal")).map_or(0, |m| m.len() >> 20);
    let mut largest = 0;
    for _ in 0..256 {
        let mut tx = db.begin_write().await.unwrap();
        let commit = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) \
                      INSERT INTO blobs SELECT randomblob(1024) FROM n";
        wm_storage::execute!(&mut tx, commit).unwrap();
        tx.commit().await.unwrap();
        largest = largest.max(wal());
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    reading.store(false, Ordering::Relaxed);
    for reader in readers {
        reader.await.unwrap();
    }
    db.close().await;
    largest
}

#[tokio::test]
async fn a_pool_closed_on_a_file_leaves_the_writer_to_the_pools_still_open_on_it() {
    let dir = tempfile::tempdir().unwrap();
    let settings = DatabaseSettings::with_url(format!("sqlite://{}/wm.db", dir.path().display()));
    let (first, second) = (Db::connect(&settings).await.unwrap(), Db::connect(&settings).await.unwrap());
    first.migrate(&THINGS).await.unwrap();
    // Kept, as the embedded event log keeps its file's writer.
    let kept = wm_storage::Writer::of(second.sqlite().unwrap());
    first.close().await;
    let turn = kept.turn().await;
    sqlx::query("INSERT INTO things VALUES ('b', 2)").execute(turn.pool()).await.unwrap();
    drop(turn);
    assert_eq!(count_things(&second).await, 2);
    second.close().await;
    let third = Db::connect(&settings).await.unwrap();
    let mut tx = third.begin_write().await.unwrap();
    wm_storage::execute!(&mut tx, "INSERT INTO things VALUES ('c', 3)").unwrap();
    tx.commit().await.unwrap();
    assert_eq!(count_things(&third).await, 3, "a pool opened after the last closed gets a writer of its own");
    third.close().await;
}

/// The options the bundled SQLite was compiled with (`.cargo/config.toml`
/// sets ours), as a connection of [`Db`] reports them.
async fn sqlite_compile_options() -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let db =
        Db::connect(&DatabaseSettings::with_url(format!("sqlite://{}/wm.db", dir.path().display()))).await.unwrap();
    sqlx::query_scalar("PRAGMA compile_options").fetch_all(db.sqlite().unwrap()).await.unwrap()
}

#[tokio::test]
async fn sqlite_plans_a_statement_once_whatever_its_limit_is_bound_to() {
    // Without the query planner stability guarantee, SQLite plans a
    // statement whose LIMIT is a bound parameter from the value bound, and so
    // prepares it again at every execution (docs/performance.md §3). The
    // guarantee is compiled in (`.cargo/config.toml`); a build without it
    // fails here. Its effect, no re-preparation, shows only through
    // `sqlite3_stmt_status`, which sqlx does not expose.
    let options = sqlite_compile_options().await;
    assert!(options.iter().any(|o| o == "ENABLE_QPSG"), "SQLite was built without SQLITE_ENABLE_QPSG: {options:?}");
}

#[tokio::test]
async fn sqlite_connections_share_no_lock_for_their_pages_or_allocations() {
    // With SQLITE_ENABLE_MEMORY_MANAGEMENT (libsqlite3-sys's default) every
    // connection's page cache is one group under one global mutex, and with
    // memory statistics on every allocation takes another: the readers' and
    // the writer's threads queued for both (docs/performance.md §3). Both
    // are compiled out (`.cargo/config.toml`); a build with either fails here.
    let options = sqlite_compile_options().await;
    assert!(!options.iter().any(|o| o == "ENABLE_MEMORY_MANAGEMENT"), "one page cache for all: {options:?}");
    assert!(options.iter().any(|o| o == "DEFAULT_MEMSTATUS=0"), "memory statistics on: {options:?}");
}

#[tokio::test]
async fn sqlite_creates_missing_folders() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/a/b/wm.db", dir.path().display());
    let db = Db::connect(&DatabaseSettings::with_url(url)).await.unwrap();
    assert_eq!(db.backend(), Backend::Sqlite);
    assert!(dir.path().join("a/b/wm.db").exists());
}

#[tokio::test]
async fn unreachable_postgres_is_a_connect_error_reported_as_unavailable() {
    // Port 1 on loopback: nothing listens there, so the connection is refused.
    let settings =
        DatabaseSettings { acquire_timeout_ms: 2_000, ..DatabaseSettings::with_url("postgres://wm@127.0.0.1:1/wm") };
    let err = Db::connect(&settings).await.unwrap_err();
    assert!(matches!(err, StorageError::Connect { backend: "postgres", .. }), "{err:?}");
    assert!(err.is_unavailable());
}

#[tokio::test]
async fn connections_count_what_is_lent_out_against_the_maximum() {
    for test_db in TestDb::each().await {
        let db = test_db.db();
        let held = match db {
            Db::Sqlite(p) => (Some(p.acquire().await.unwrap()), None),
            Db::Postgres(p) => (None, Some(p.acquire().await.unwrap())),
        };
        let lent = db.connections();
        assert!(lent.in_use() >= 1 && lent.in_use() <= lent.open, "{:?}: {lent:?}", db.backend());
        assert_eq!(lent.max, test_db.settings().max_connections);
        drop(held);
        // A returned connection goes back to the idle list in the background.
        let mut left = db.connections();
        for _ in 0..100 {
            if left.in_use() < lent.in_use() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            left = db.connections();
        }
        assert_eq!(left.in_use(), lent.in_use() - 1, "{:?}: {left:?}", db.backend());
    }
}

/// A PostgreSQL connection the server closed while it sat idle in the pool
/// (a restart, a failover) is replaced before a query fails on it: the pool
/// pings a connection idle for a second or more before lending it.
#[tokio::test]
async fn a_postgresql_connection_closed_while_idle_is_replaced_before_a_query_fails_on_it() {
    let Some(test_db) = TestDb::postgres().await else { return };
    let db = Db::connect(&DatabaseSettings { max_connections: 1, ..test_db.settings().clone() }).await.unwrap();
    let (Db::Postgres(pool), Db::Postgres(admin)) = (&db, test_db.db()) else { panic!("two PostgreSQL pools") };
    let pid = "SELECT pg_backend_pid()";
    let first: i32 = sqlx::query_scalar(pid).fetch_one(pool).await.unwrap();
    let closed: bool =
        sqlx::query_scalar("SELECT pg_terminate_backend($1)").bind(first).fetch_one(admin).await.unwrap();
    assert!(closed);
    tokio::time::sleep(std::time::Duration::from_millis(1_200)).await;
    let second: i32 = sqlx::query_scalar(pid).fetch_one(pool).await.unwrap();
    assert_ne!(first, second, "a new connection");
}
