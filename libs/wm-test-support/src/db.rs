//! A fresh, private database per test, on either backend.

use std::ops::Deref;

use sqlx::{Connection, PgConnection};
use wm_storage::{DatabaseSettings, Db};

use crate::servers;

/// A database that exists for one test and is removed when dropped.
#[derive(Debug)]
pub struct TestDb {
    db: Db,
    settings: DatabaseSettings,
    cleanup: Cleanup,
}

#[derive(Debug)]
enum Cleanup {
    /// The SQLite file lives in this folder, deleted on drop.
    Dir(#[allow(dead_code)] tempfile::TempDir),
    /// Drop this database through the admin URL.
    Postgres { admin_url: String, name: String },
}

impl TestDb {
    /// A new SQLite database file in a temporary folder.
    pub async fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().expect("temporary folder");
        let settings = DatabaseSettings::with_url(format!("sqlite://{}/test.db", dir.path().display()));
        let db = Db::connect(&settings).await.expect("open SQLite test database");
        TestDb { db, settings, cleanup: Cleanup::Dir(dir) }
    }

    /// A new database on the PostgreSQL server named by `WM_TEST_PG_URL`,
    /// or `None` (the test is skipped) when none is configured.
    pub async fn postgres() -> Option<TestDb> {
        let admin_url = servers::postgres_url()?;
        let name = format!("wm_test_{}", uuid::Uuid::now_v7().simple());
        let mut admin = PgConnection::connect(&admin_url).await.expect("connect to the test PostgreSQL");
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut admin)
            .await
            .expect("create test database");
        let _ = admin.close().await;
        let settings = DatabaseSettings::with_url(with_database(&admin_url, &name));
        let db = Db::connect(&settings).await.expect("open PostgreSQL test database");
        Some(TestDb { db, settings, cleanup: Cleanup::Postgres { admin_url, name } })
    }

    /// One fresh database per available backend: SQLite always, PostgreSQL
    /// when configured. Storage tests loop over this so both run the same
    /// assertions.
    pub async fn each() -> Vec<TestDb> {
        let mut all = vec![TestDb::sqlite().await];
        all.extend(TestDb::postgres().await);
        all
    }

    /// Drops a PostgreSQL database now, cutting every connection to it, as
    /// an outage would. Panics for SQLite, which has no server to lose.
    pub async fn drop_now(&self) {
        let Cleanup::Postgres { admin_url, name } = &self.cleanup else { panic!("drop_now needs PostgreSQL") };
        let mut admin = PgConnection::connect(admin_url).await.expect("connect to the test PostgreSQL");
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("DROP DATABASE {name} WITH (FORCE)")))
            .execute(&mut admin)
            .await
            .expect("drop the test database");
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    /// How SQLite runs `sql`: the details of its query plan, in order.
    /// Panics for PostgreSQL, whose plans depend on its statistics.
    pub async fn sqlite_plan(&self, sql: &str) -> Vec<String> {
        let pool = self.db.sqlite().expect("a query plan needs SQLite");
        let sql = format!("EXPLAIN QUERY PLAN {sql}");
        let rows: Vec<(i64, i64, i64, String)> =
            sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(pool).await.expect("EXPLAIN QUERY PLAN");
        rows.into_iter().map(|(_, _, _, detail)| detail).collect()
    }

    /// Settings that open this same database again (for example from a
    /// spawned `wmeter` process).
    pub fn settings(&self) -> &DatabaseSettings {
        &self.settings
    }
}

impl Deref for TestDb {
    type Target = Db;
    fn deref(&self) -> &Db {
        &self.db
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let Cleanup::Postgres { admin_url, name } = &self.cleanup else { return };
        let (admin_url, drop_sql) = (admin_url.clone(), format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
        // Drop runs inside the test's runtime, which cannot block on async
        // work: drop the database from a thread with a runtime of its own.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
            runtime.block_on(async {
                let mut admin = PgConnection::connect(&admin_url).await.ok()?;
                sqlx::raw_sql(sqlx::AssertSqlSafe(drop_sql)).execute(&mut admin).await.ok()
            })
        })
        .join();
        if !matches!(dropped, Ok(Some(_))) {
            eprintln!("warning: could not drop test database {name}");
        }
    }
}

/// `admin_url` with its database path replaced by `name`.
fn with_database(admin_url: &str, name: &str) -> String {
    let (base, query) = admin_url.split_once('?').map_or((admin_url, None), |(b, q)| (b, Some(q)));
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let host_end = base[scheme_end..].find('/').map_or(base.len(), |i| scheme_end + i);
    let mut url = format!("{}/{name}", &base[..host_end]);
    if let Some(q) = query {
        url.push('?');
        url.push_str(q);
    }
    url
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn replaces_database_keeps_query() {
        assert_eq!(with_database("postgres://p@127.0.0.1:5/postgres", "t1"), "postgres://p@127.0.0.1:5/t1");
        assert_eq!(
            with_database("postgres://p@h:5/postgres?sslmode=disable", "t"),
            "postgres://p@h:5/t?sslmode=disable"
        );
        assert_eq!(with_database("postgres://p@h:5", "t"), "postgres://p@h:5/t");
    }
}
