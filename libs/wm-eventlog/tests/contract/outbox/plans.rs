//! The plans of a PostgreSQL round: found by index however empty the
//! table was when last analyzed, beside another source's rows, and with a
//! backlog of the relay's own.

use std::sync::atomic::Ordering;

use wm_eventlog::outbox::Relay;
use wm_proto::topics;
use wm_storage::{DatabaseSettings, Db, with_pool};
use wm_test_support::TestDb;

use super::{Interferes, OlderRow, deleted, on_postgres, stage_as_older_builds};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgresql_a_round_finds_its_rows_by_index_after_the_table_started_empty() {
    let Some((pg, harness)) = on_postgres().await else { return };
    // The relay on one connection: the one whose statements would keep a
    // plan, and whose scans are counted on demand below.
    let one = Db::connect(&DatabaseSettings { max_connections: 1, ..pg.settings().clone() }).await.unwrap();
    let log = Interferes::new(harness.log.clone());
    let relay = Relay::new(one.clone(), log.clone(), "test");
    // Autovacuum's statistics of the table while empty, as a relay's table
    // often is; then rounds on it: a statement prepared once would keep the
    // plan these make, a scan of the whole table.
    let analyze = "ANALYZE event_outbox_batch; ANALYZE event_outbox";
    with_pool!(pg.db(), pool => sqlx::raw_sql(analyze).execute(pool).await.map(drop)).unwrap();
    for _ in 0..20 {
        assert_eq!(relay.flush().await.unwrap(), 0);
    }
    // Another source's stagings, one event each: a row each.
    let other = Relay::new(pg.db().clone(), harness.log.clone(), "other");
    let mut tx = pg.db().begin_write().await.unwrap();
    for i in 0..5_000 {
        other.stage(&mut tx, None, &[deleted(&format!("{i:024x}"))]).await.unwrap();
    }
    relay.stage(&mut tx, None, &[deleted("aaaaaaaaaaaaaaaaaaaaaaaa")]).await.unwrap();
    tx.commit().await.unwrap();
    let before = counted(&pg, &one, SCANS).await;

    assert_eq!(relay.flush().await.unwrap(), 1);
    let after = counted(&pg, &one, SCANS).await;
    assert!(after.1 > before.1, "the round's scans were counted: {before:?} → {after:?}");
    assert_eq!(after.0, before.0, "no round read the table whole, beside 5,000 rows of another source");

    // A backlog in the older table, as during a rolling upgrade under load:
    // a round reads its index only as far as its 500 rows, not every row of
    // its source (a bitmap scan, then a sort), which grew slower with the
    // backlog. The log refuses that round, so it is the only one.
    let event = deleted("aaaaaaaaaaaaaaaaaaaaaaaa").to_bytes();
    let backlog: Vec<OlderRow<'_>> = (0..20_000).map(|_| (Some(topics::REGISTRY), "registry", event.clone())).collect();
    stage_as_older_builds(&pg, "test", &backlog, 0).await;
    let before = counted(&pg, &one, OLDER_INDEX_READ).await;
    log.refuse_next.store(true, Ordering::SeqCst);
    relay.flush().await.expect_err("the log refused the round");
    let read = counted(&pg, &one, OLDER_INDEX_READ).await.0 - before.0;
    assert!(read < 1_000, "{read} index entries read for one round of 500, with 20,000 rows waiting");
    assert_eq!(relay.flush().await.unwrap(), 20_000);
}

/// The batch table's sequential and index scans.
const SCANS: &str = "SELECT seq_scan, idx_scan FROM pg_stat_user_tables WHERE relname = 'event_outbox_batch'";
/// The entries read of the older table's index by source, and its scans.
const OLDER_INDEX_READ: &str =
    "SELECT idx_tup_read, idx_scan FROM pg_stat_user_indexes WHERE indexrelname = 'event_outbox_source'";

/// Two counters of the statistics views (`sql`), with what `one`'s
/// connection did counted: a backend reports its own when idle, but only
/// once a second, or 10 s later; `pg_stat_force_next_flush` has it report
/// as it goes idle after that statement.
async fn counted(db: &TestDb, one: &Db, sql: &'static str) -> (i64, i64) {
    with_pool!(one, pool => sqlx::query("SELECT pg_stat_force_next_flush()").execute(pool).await.map(drop)).unwrap();
    let read = || async { with_pool!(db.db(), pool => sqlx::query_as(sql).fetch_one(pool).await).unwrap() };
    // What `one` reported may take a moment to show in a snapshot of
    // another connection: read until it stays the same.
    let (mut last, mut same) = (read().await, 0);
    while same < 4 {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        let now = read().await;
        same = if now == last { same + 1 } else { 0 };
        last = now;
    }
    last
}
