//! Multi-row statements and `COPY`, asserted on SQLite and on PostgreSQL alike.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

use wm_storage::{
    Migration, Migrations,
    bulk::{self, Rows},
    query::Bind,
};
use wm_test_support::TestDb;

const TABLES: &str = "CREATE TABLE items (id TEXT PRIMARY KEY, n BIGINT NOT NULL, note TEXT, ok BOOLEAN NOT NULL, \
                      x DOUBLE PRECISION, raw BYTEA);";
const ITEMS: Migrations = Migrations {
    component: "items",
    sqlite: &[Migration {
        version: 1,
        name: "items",
        sql: "CREATE TABLE items (id TEXT PRIMARY KEY, \
        n BIGINT NOT NULL, note TEXT, ok BOOLEAN NOT NULL, x REAL, raw BLOB);",
    }],
    postgres: &[Migration { version: 1, name: "items", sql: TABLES }],
};

fn item(i: i64) -> [Bind; 6] {
    let note = if i % 2 == 0 { Bind::from(format!("tab\there \\ {i}")) } else { Bind::NullText };
    let x = if i % 3 == 0 { Bind::NullReal } else { Bind::Real(i as f64 / 2.0) };
    [Bind::from(format!("i{i:05}")), Bind::Int(i), note, Bind::Bool(i % 2 == 0), x, Bind::Bytes(vec![i as u8, 0])]
}

type Item = (String, i64, Option<String>, bool, Option<f64>, Option<Vec<u8>>);

async fn all(tx: &mut wm_storage::Tx) -> Vec<Item> {
    bulk::fetch_in(tx, "SELECT id, n, note, ok, x, raw FROM items", "1", vec![Bind::Int(1)]).await.unwrap()
}

#[tokio::test]
async fn copy_and_multi_row_statements_keep_every_value_on_both_backends() {
    for test_db in TestDb::each().await {
        let db = test_db.db();
        db.migrate(&ITEMS).await.unwrap();
        let columns = ["id", "n", "note", "ok", "x", "raw"];

        // More rows than one statement may bind, through COPY (or INSERTs).
        let mut rows = Rows::new(6);
        (0..6_000).for_each(|i| rows.push(item(i)));
        let mut tx = db.begin_write().await.unwrap();
        assert_eq!(bulk::copy(&mut tx, "items", &columns, rows).await.unwrap(), 6_000, "{:?}", db.backend());
        let mut loaded = all(&mut tx).await;
        loaded.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(loaded.len(), 6_000);
        assert_eq!(loaded[4], ("i00004".into(), 4, Some("tab\there \\ 4".into()), true, Some(2.0), Some(vec![4, 0])));
        assert_eq!(loaded[3], ("i00003".into(), 3, None, false, None, Some(vec![3, 0])));

        // An insert that skips existing rows returns only the new ones.
        let mut rows = Rows::new(6);
        [5_999, 6_000, 6_001].into_iter().for_each(|i| rows.push(item(i)));
        let new: Vec<(String,)> = bulk::fetch(
            &mut tx,
            "INSERT INTO items (id, n, note, ok, x, raw)",
            " ON CONFLICT DO NOTHING RETURNING id",
            rows,
        )
        .await
        .unwrap();
        let mut new: Vec<String> = new.into_iter().map(|(id,)| id).collect();
        new.sort();
        assert_eq!(new, vec!["i06000", "i06001"]);

        // An update from a list of values, joined on `column1`.
        let mut changes = Rows::new(2);
        changes.push([Bind::from("i00001"), Bind::Int(100)]);
        changes.push([Bind::from("i00002"), Bind::Int(-2)]);
        let changed = bulk::execute(
            &mut tx,
            "UPDATE items SET n = items.n + v.column2 FROM (",
            ") AS v WHERE items.id = v.column1",
            changes,
        )
        .await
        .unwrap();
        assert_eq!(changed, 2);
        let ids = ["i00001", "i00002", "missing"].map(Bind::from).to_vec();
        let mut found: Vec<(String, i64)> =
            bulk::fetch_in(&mut tx, "SELECT id, n FROM items", "id", ids).await.unwrap();
        found.sort();
        assert_eq!(found, vec![("i00001".into(), 101), ("i00002".into(), 0)]);
        tx.commit().await.unwrap();
    }
}
