//! A small migration runner that lets each component own its schema.
//!
//! sqlx's own migrator keeps one version sequence per database, which does
//! not fit services that share one SQLite file in the embedded mode but own
//! separate databases in the distributed mode. Here every component keeps
//! its own sequence in `wm_schema_migrations (component, version)`.

use sqlx::{Connection, PgConnection, Row};

use crate::{Db, StorageError};

/// One forward-only schema change. `sql` may hold several statements; it is
/// applied in one transaction together with its bookkeeping row.
#[derive(Clone, Copy, Debug)]
pub struct Migration {
    pub version: u32,
    pub name: &'static str,
    pub sql: &'static str,
}

/// The migrations of one component, one list per backend. Versions start at
/// 1 and increase by one. Declare them with [`migrations!`](crate::migrations).
#[derive(Debug)]
pub struct Migrations {
    pub component: &'static str,
    pub sqlite: &'static [Migration],
    pub postgres: &'static [Migration],
}

impl Migrations {
    /// The migrations up to `version` and no further, on both backends: the
    /// schema an older release left, for tests of an upgrade. Panics past
    /// the last version.
    pub fn up_to(&self, version: usize) -> Migrations {
        let (sqlite, postgres) = (self.sqlite, self.postgres);
        Migrations { component: self.component, sqlite: &sqlite[..version], postgres: &postgres[..version] }
    }
}

/// Declares a component's [`Migrations`] once for both backends: each
/// `version => "name"` is read from `migrations/sqlite/NNNN_name.sql` and
/// `migrations/postgres/NNNN_name.sql` under the crate's folder (or under
/// `in "folder"`).
///
/// ```ignore
/// pub const MIGRATIONS: Migrations = wm_storage::migrations!("auth", 1 => "users", 2 => "refresh_tokens");
/// ```
#[macro_export]
macro_rules! migrations {
    ($component:literal, $($version:tt => $name:literal),+ $(,)?) => {
        $crate::migrations!($component in "migrations", $($version => $name),+)
    };
    ($component:literal in $folder:literal, $($version:tt => $name:literal),+ $(,)?) => {
        $crate::Migrations {
            component: $component,
            sqlite: &[$($crate::migrations!(@one $folder, sqlite, $version, $name)),+],
            postgres: &[$($crate::migrations!(@one $folder, postgres, $version, $name)),+],
        }
    };
    (@one $folder:literal, $backend:ident, $version:tt, $name:literal) => {
        $crate::Migration {
            version: $version,
            name: $name,
            sql: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"), "/", $folder, "/", stringify!($backend), "/",
                $crate::migrations!(@zeros $version), "_", $name, ".sql"
            )),
        }
    };
    (@zeros 1) => { "0001" }; (@zeros 2) => { "0002" }; (@zeros 3) => { "0003" }; (@zeros 4) => { "0004" };
    (@zeros 5) => { "0005" }; (@zeros 6) => { "0006" }; (@zeros 7) => { "0007" }; (@zeros 8) => { "0008" };
    (@zeros 9) => { "0009" }; (@zeros 10) => { "0010" }; (@zeros 11) => { "0011" }; (@zeros 12) => { "0012" };
    (@zeros 13) => { "0013" }; (@zeros 14) => { "0014" }; (@zeros 15) => { "0015" }; (@zeros 16) => { "0016" };
    (@zeros 17) => { "0017" }; (@zeros 18) => { "0018" }; (@zeros 19) => { "0019" };
}

const CREATE_TABLE: &str = "CREATE TABLE IF NOT EXISTS wm_schema_migrations (
    component TEXT NOT NULL,
    version BIGINT NOT NULL,
    name TEXT NOT NULL,
    checksum TEXT NOT NULL,
    PRIMARY KEY (component, version)
)";
const SELECT_APPLIED: &str = "SELECT version, checksum FROM wm_schema_migrations WHERE component = $1";
const INSERT_APPLIED: &str =
    "INSERT INTO wm_schema_migrations (component, version, name, checksum) VALUES ($1, $2, $3, $4)";
/// How many times a migration is tried when PostgreSQL aborts it to break a
/// deadlock: a migration that locks two tables (a `DROP INDEX` on each) can
/// deadlock with a running replica's statement that reads both in the
/// other order, during a rolling update. It ran in one transaction, so
/// trying it again is safe.
const MIGRATION_ATTEMPTS: u32 = 5;
/// The wait before the next attempt, times the attempts so far.
const DEADLOCK_BACKOFF: std::time::Duration = std::time::Duration::from_millis(200);

/// Whether PostgreSQL aborted the transaction to break a deadlock.
fn is_deadlock(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.code().as_deref() == Some("40P01"))
}

/// Serializes concurrent replicas migrating one PostgreSQL database.
const PG_LOCK_KEY: i64 = 0x776d_6d69_6772;

/// Both pools run the same statements; only the connection type differs,
/// which a generic function over `sqlx::Database` cannot express briefly.
macro_rules! apply_pending {
    ($conn:expr, $component:expr, $list:expr) => {{
        sqlx::query(CREATE_TABLE).execute(&mut *$conn).await?;
        let rows = sqlx::query(SELECT_APPLIED).bind($component).fetch_all(&mut *$conn).await?;
        let applied = rows.iter().map(|r| (r.get::<i64, _>(0), r.get::<String, _>(1))).collect();
        for m in pending($component, $list, applied)? {
            let mut attempt = 1;
            loop {
                let mut tx = Connection::begin(&mut *$conn).await?;
                let run = async {
                    sqlx::raw_sql(m.sql).execute(&mut *tx).await?;
                    sqlx::query(INSERT_APPLIED)
                        .bind($component)
                        .bind(i64::from(m.version))
                        .bind(m.name)
                        .bind(checksum(m.sql))
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await
                };
                match run.await {
                    Ok(()) => break,
                    Err(e) if attempt < MIGRATION_ATTEMPTS && is_deadlock(&e) => {
                        tracing::warn!(version = m.version, name = m.name, attempt, "migration deadlocked, retried");
                        tokio::time::sleep(DEADLOCK_BACKOFF * attempt).await;
                        attempt += 1;
                    }
                    Err(source) => {
                        return Err(StorageError::Migration {
                            component: $component,
                            version: m.version,
                            name: m.name,
                            source,
                        });
                    }
                }
            }
            tracing::info!(version = m.version, name = m.name, "migration applied");
        }
        Ok::<(), StorageError>(())
    }};
}

impl Db {
    /// Applies the component's pending migrations for this backend, in order.
    /// Refuses to run when an applied migration was edited, or when the
    /// database holds a version this build does not know among its own; a
    /// database only ahead of it is run on (see [`pending`]).
    #[tracing::instrument(skip_all, fields(component = migrations.component))]
    pub async fn migrate(&self, migrations: &Migrations) -> Result<(), StorageError> {
        match self {
            Db::Sqlite(pool) => {
                let mut pooled = pool.acquire().await?;
                let conn = &mut *pooled;
                apply_pending!(conn, migrations.component, migrations.sqlite)
            }
            Db::Postgres(pool) => {
                // A connection of its own, not a pooled one: if this future is
                // dropped mid-way, closing the socket releases the session lock,
                // where a pooled connection would go back to the pool holding it.
                let mut conn = PgConnection::connect_with(&pool.connect_options()).await?;
                sqlx::query("SELECT pg_advisory_lock($1)").bind(PG_LOCK_KEY).execute(&mut conn).await?;
                let result = async {
                    let conn = &mut conn;
                    apply_pending!(conn, migrations.component, migrations.postgres)
                }
                .await;
                let _ = conn.close().await;
                result
            }
        }
    }
}

/// The migrations still to apply, after checking the applied ones.
///
/// A database ahead of this build (versions after its last, with every one
/// it knows applied) is run on: that is the previous release during a
/// rolling update, after the new release's migrations expanded the schema
/// (expand/contract, docs/operations.md "Upgrades"). An unknown version
/// among the known ones, or with a known one missing, is refused.
fn pending<'m>(
    component: &'static str,
    list: &'m [Migration],
    applied: Vec<(i64, String)>,
) -> Result<Vec<&'m Migration>, StorageError> {
    let latest = list.iter().map(|m| m.version).max().unwrap_or(0);
    let mut ahead = Vec::new();
    for (version, applied_sum) in &applied {
        let version = u32::try_from(*version).unwrap_or(u32::MAX);
        match list.iter().find(|m| m.version == version) {
            None if version > latest => ahead.push(version),
            None => return Err(StorageError::UnknownVersion { component, version }),
            Some(m) if checksum(m.sql) != *applied_sum => {
                return Err(StorageError::ChecksumMismatch {
                    component,
                    version,
                    applied: applied_sum.clone(),
                    current: checksum(m.sql),
                });
            }
            Some(_) => {}
        }
    }
    let done: Vec<i64> = applied.into_iter().map(|(v, _)| v).collect();
    let todo: Vec<&Migration> = list.iter().filter(|m| !done.contains(&i64::from(m.version))).collect();
    if let Some(&version) = ahead.iter().min() {
        if !todo.is_empty() {
            return Err(StorageError::UnknownVersion { component, version });
        }
        tracing::warn!(
            component,
            build = latest,
            database = ?ahead,
            "the database's schema is ahead of this build: running on it, as the previous release does during a \
             rolling update (expand/contract)"
        );
    }
    Ok(todo)
}

/// FNV-1a over the SQL text: stable across builds and platforms, which is
/// all an edit detector needs.
fn checksum(sql: &str) -> String {
    let hash = sql.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: &[Migration] = &[
        Migration { version: 1, name: "one", sql: "CREATE TABLE a (x INT)" },
        Migration { version: 2, name: "two", sql: "CREATE TABLE b (x INT)" },
    ];

    #[test]
    fn fresh_database_gets_everything_in_order() {
        let todo = pending("c", LIST, vec![]).unwrap();
        assert_eq!(todo.iter().map(|m| m.version).collect::<Vec<_>>(), vec![1, 2]);
    }

    #[test]
    fn applied_ones_are_skipped() {
        let todo = pending("c", LIST, vec![(1, checksum(LIST[0].sql))]).unwrap();
        assert_eq!(todo.iter().map(|m| m.version).collect::<Vec<_>>(), vec![2]);
    }

    #[test]
    fn edited_migration_is_refused() {
        let err = pending("c", LIST, vec![(1, "0000".into())]).unwrap_err();
        assert!(matches!(err, StorageError::ChecksumMismatch { version: 1, .. }));
    }

    #[test]
    fn a_database_ahead_of_the_build_is_run_on_once_the_build_s_own_are_applied() {
        let applied = || vec![(1, checksum(LIST[0].sql)), (2, checksum(LIST[1].sql)), (3, "x".into())];
        assert!(pending("c", LIST, applied()).unwrap().is_empty(), "the previous release on an expanded schema");
        let err = pending("c", LIST, vec![(1, checksum(LIST[0].sql)), (3, "x".into())]).unwrap_err();
        assert!(matches!(err, StorageError::UnknownVersion { version: 3, .. }), "v2 is missing under v3");
    }

    #[test]
    fn an_unknown_version_among_the_known_ones_is_refused() {
        const GAP: &[Migration] = &[LIST[0], Migration { version: 3, name: "three", sql: "CREATE TABLE c (x INT)" }];
        let err = pending("c", GAP, vec![(1, checksum(LIST[0].sql)), (2, "x".into())]).unwrap_err();
        assert!(matches!(err, StorageError::UnknownVersion { version: 2, .. }));
    }
}
