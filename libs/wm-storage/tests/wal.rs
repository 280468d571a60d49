//! The SQLite WAL's checkpoints: it is copied beside the writer's turns,
//! starts over under readers that never stop, and is cut back to its limit
//! (`database.wal_limit_mib`, 64 MiB here: a quarter of the default, so
//! that each test writes a quarter as much).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

use std::path::Path;

use wm_storage::{DatabaseSettings, Db};

/// Appends `$1` rows of 1 KiB each to `blobs`, in one statement.
const KIB_ROWS: &str = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $1) \
                        INSERT INTO blobs SELECT randomblob(1024) FROM n";

/// A database in `dir/wm.db` with an empty table `blobs`, and a WAL
/// limit of 64 MiB.
async fn blobs(dir: &Path) -> Db {
    let settings = DatabaseSettings {
        wal_limit_mib: 64,
        ..DatabaseSettings::with_url(format!("sqlite://{}", dir.join("wm.db").display()))
    };
    let db = Db::connect(&settings).await.unwrap();
    sqlx::query("CREATE TABLE blobs (b BLOB)").execute(db.sqlite().unwrap()).await.unwrap();
    db
}

#[tokio::test]
async fn sqlite_s_wal_shrinks_back_to_64_mib_once_a_burst_is_checkpointed() {
    let dir = tempfile::tempdir().unwrap();
    let db = blobs(dir.path()).await;
    let pool = db.sqlite().unwrap();
    // 80 MiB in one transaction: the WAL cannot be checkpointed before it ends.
    sqlx::query(KIB_ROWS).bind(80_000).execute(pool).await.unwrap();
    let wal = || std::fs::metadata(dir.path().join("wm.db-wal")).unwrap().len() >> 20;
    assert!(wal() >= 80, "the burst is in the WAL: {} MiB", wal());
    // The commit checkpoints it, unless the database's own checkpoint
    // task (`PASSIVE`, beside the writer's turns) is copying at that
    // moment: then the commit's checkpoint gives way, and the WAL can start
    // over only once the task's copy ends. The first write after a whole
    // copy starts the WAL over, cut back to the limit.
    let waited = std::time::Instant::now();
    loop {
        sqlx::query("INSERT INTO blobs VALUES (1)").execute(pool).await.unwrap();
        if wal() <= 64 {
            break;
        }
        assert!(waited.elapsed() < std::time::Duration::from_secs(10), "{} MiB after 10 s", wal());
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_writer_s_wal_is_checkpointed_beside_its_turns_and_starts_over() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("wm.db");
    let db = blobs(dir.path()).await;
    // The WAL's checkpoint sequence number (bytes 12..16 of its header)
    // counts the times it started over.
    let restarts = || {
        let mut header = [0; 16];
        std::io::Read::read_exact(&mut std::fs::File::open(dir.path().join("wm.db-wal")).unwrap(), &mut header)
            .unwrap();
        u32::from_be_bytes(header[12..16].try_into().unwrap())
    };
    let mut tx = db.begin_write().await.unwrap();
    wm_storage::execute!(&mut tx, KIB_ROWS, 24_000).unwrap();
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wal_left_to_start_over_takes_no_more_turns_while_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let db = blobs(dir.path()).await;
    // 80 MiB, past the 64 MiB at which a turn waits for readers.
    let mut tx = db.begin_write().await.unwrap();
    wm_storage::execute!(&mut tx, KIB_ROWS, 80_000).unwrap();
    tx.commit().await.unwrap();
    let checkpoint_turns = || -> u64 {
        wm_storage::writer::spent_by_site()
            .iter()
            .filter(|(site, _)| site.contains("checkpoint.rs"))
            .map(|(_, spent)| spent.turns)
            .sum()
    };
    let waited = std::time::Instant::now();
    while checkpoint_turns() == 0 {
        assert!(waited.elapsed() < std::time::Duration::from_secs(30), "no turn started the WAL over");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // The WAL stays that long until the next write; the checkpoints see it
    // four times a second, and leave the writer alone.
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    let turns = checkpoint_turns();
    tokio::time::sleep(std::time::Duration::from_millis(1_500)).await;
    assert_eq!(checkpoint_turns(), turns, "turns taken while nothing was written");
    db.close().await;
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
    let db = blobs(dir.path()).await;
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
        wm_storage::execute!(&mut tx, KIB_ROWS, 1_000).unwrap();
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
