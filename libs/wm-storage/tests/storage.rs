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

/// `execute_write!` waits its turn at the writer like any transaction, and
/// the turn is counted against the line that wrote the statement, not the
/// macro's.
#[tokio::test]
async fn a_statement_written_alone_takes_its_turn_counted_against_its_own_line() {
    let db = TestDb::sqlite().await;
    wm_storage::execute_write!(db, "CREATE TABLE t (v INTEGER)").await.unwrap();
    let line = line!() - 1;
    let inserted = wm_storage::execute_write!(db, "INSERT INTO t VALUES ($1), ($2)", 1_i64, 2_i64).await.unwrap();
    assert_eq!(inserted, 2);
    let sites = wm_storage::writer::spent_by_site();
    let here = format!("{}:{line}", file!());
    assert!(sites.iter().any(|(site, spent)| *site == here && spent.turns == 1), "{here} in {sites:?}");
}
