//! `wm_alloc::start`, in a process of its own (this file's test binary):
//! SQLite's allocator is set once, before it starts.

use sqlx::{Connection, Row, SqliteConnection};

#[tokio::test]
async fn started_the_process_runs_sqlite_on_mimalloc_without_huge_pages() {
    wm_alloc::start().expect("SQLite has not started in this process yet");
    assert!(rustix::thread::transparent_huge_pages_are_disabled().expect("prctl"), "no transparent huge pages");

    let mut db = SqliteConnection::connect("sqlite::memory:").await.expect("an in-memory database opens");
    sqlx::query("CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)").execute(&mut db).await.expect("create");
    for id in 0..2_000_i64 {
        let body = vec![u8::try_from(id % 251).expect("below 251"); 1_000];
        sqlx::query("INSERT INTO t VALUES (?, ?)").bind(id).bind(body).execute(&mut db).await.expect("insert");
    }
    let rows = sqlx::query("SELECT body FROM t ORDER BY id").fetch_all(&mut db).await.expect("select");
    assert_eq!(rows.len(), 2_000);
    let body: Vec<u8> = rows[1_000].get(0);
    assert_eq!(body, vec![247_u8; 1_000], "values come back whole (1,000 mod 251 is 247)");

    #[allow(unsafe_code)]
    // SAFETY: a block from sqlite3_malloc, checked and handed back to sqlite3_free.
    let from_mimalloc = unsafe {
        let block = libsqlite3_sys::sqlite3_malloc(100);
        assert!(!block.is_null());
        let owned = libmimalloc_sys::mi_is_in_heap_region(block);
        libsqlite3_sys::sqlite3_free(block);
        owned
    };
    assert!(from_mimalloc, "SQLite's blocks come from mimalloc's heap");

    let again = wm_alloc::start();
    assert!(
        matches!(again, Err(wm_alloc::NotStarted::SqliteStarted(libsqlite3_sys::SQLITE_MISUSE))),
        "a started SQLite keeps its allocator: {again:?}"
    );
    db.close().await.expect("close");
}
