use std::{path::Path, str::FromStr, time::Duration};

use sqlx::{
    Connection, PgPool, SqlitePool,
    postgres::{PgConnectOptions, PgPoolOptions},
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
};

use crate::{DatabaseSettings, StorageError, settings::redact};

/// Which SQL dialect a [`Db`] speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The name OpenTelemetry gives it (`db.system`), for spans.
    pub fn system(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgresql",
        }
    }
}

/// Runs `$body` with `$pool` bound to whichever pool `$db` holds: SQL that
/// both dialects accept is written once.
///
/// ```ignore
/// let n: i64 = with_pool!(db, pool => sqlx::query_scalar("SELECT COUNT(*) FROM users").fetch_one(pool).await)?;
/// ```
#[macro_export]
macro_rules! with_pool {
    ($db:expr, $pool:ident => $body:expr) => {
        match $db {
            $crate::Db::Sqlite($pool) => $body,
            $crate::Db::Postgres($pool) => $body,
        }
    };
}

/// A pool's connections at one moment ([`Db::connections`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolUse {
    /// Connections open, idle or lent out.
    pub open: u32,
    pub idle: u32,
    /// `database.max_connections`.
    pub max: u32,
}

impl PoolUse {
    /// Connections lent out to a query or transaction.
    pub fn in_use(&self) -> u32 {
        self.open.saturating_sub(self.idle)
    }
}

/// A connection pool for one of the two supported databases.
#[derive(Clone, Debug)]
pub enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

impl Db {
    /// Opens the pool named by `settings.url`.
    ///
    /// SQLite files (and their folder) are created when missing, and use WAL
    /// so readers never block the single writer. PostgreSQL is connected
    /// eagerly, so a wrong URL or a down server fails at start-up.
    #[tracing::instrument(skip_all, fields(url = %redact(&settings.url)))]
    pub async fn connect(settings: &DatabaseSettings) -> Result<Db, StorageError> {
        settings.validate()?;
        let acquire = Duration::from_millis(settings.acquire_timeout_ms);
        match settings.backend()? {
            Backend::Sqlite => {
                let pool = connect_sqlite(settings, acquire).await?;
                crate::writer::Writer::opened(&pool);
                Ok(Db::Sqlite(pool))
            }
            Backend::Postgres => connect_postgres(settings, acquire).await.map(Db::Postgres),
        }
    }

    pub fn backend(&self) -> Backend {
        match self {
            Db::Sqlite(_) => Backend::Sqlite,
            Db::Postgres(_) => Backend::Postgres,
        }
    }

    pub fn sqlite(&self) -> Option<&SqlitePool> {
        match self {
            Db::Sqlite(pool) => Some(pool),
            Db::Postgres(_) => None,
        }
    }

    pub fn postgres(&self) -> Option<&PgPool> {
        match self {
            Db::Postgres(pool) => Some(pool),
            Db::Sqlite(_) => None,
        }
    }

    /// A cheap round trip, used by `/readyz`.
    pub async fn ping(&self) -> Result<(), StorageError> {
        with_pool!(self, pool => sqlx::query("SELECT 1").execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// How many connections the pool holds now, and may hold at most.
    pub fn connections(&self) -> PoolUse {
        with_pool!(self, pool => PoolUse {
            open: pool.size(),
            idle: u32::try_from(pool.num_idle()).unwrap_or(u32::MAX),
            max: pool.options().get_max_connections(),
        })
    }

    /// Waits for in-flight queries and closes every connection.
    pub async fn close(&self) {
        with_pool!(self, pool => pool.close().await);
        if let Db::Sqlite(pool) = self {
            crate::writer::Writer::close(pool).await;
        }
    }
}

/// Whether a SQLite pool pings a connection before it hands it out: never.
/// sqlx's default does, and a ping is a round trip to the connection's
/// worker thread (two thread wake-ups) for a file that cannot hang up; a
/// statement through the pool then cost three round trips (that ping, the
/// statement, the ping sqlx makes when the connection comes back) instead
/// of two (docs/performance.md §3). A worker that died still fails that
/// ping on release, and its connection is closed. The writer's pool takes
/// the same setting from the readers' (`writer.rs`).
const PING_ON_ACQUIRE: bool = false;

async fn connect_sqlite(settings: &DatabaseSettings, acquire: Duration) -> Result<SqlitePool, StorageError> {
    let options = SqliteConnectOptions::from_str(&settings.url)
        .map_err(|e| StorageError::InvalidSettings { key: "database.url", message: e.to_string() })?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(10))
        // The WAL file keeps its largest size (a burst of deletes, or
        // checkpoints held back by long reads) unless told to shrink back
        // once a checkpoint lets it start over. The checkpoints read this
        // back as the length at which they start it over (checkpoint.rs).
        .pragma("journal_size_limit", (settings.wal_limit_mib << 20).to_string());
    if let Some(parent) = Path::new(options.get_filename()).parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| StorageError::InvalidSettings {
            key: "database.url",
            message: format!("cannot create the folder {}: {e}", parent.display()),
        })?;
    }
    SqlitePoolOptions::new()
        .max_connections(settings.max_connections)
        .acquire_timeout(acquire)
        .test_before_acquire(PING_ON_ACQUIRE)
        .connect_with(options)
        .await
        .map_err(|source| StorageError::Connect { backend: "sqlite", source })
}

/// How long a pooled PostgreSQL connection may sit idle before the pool
/// pings it ahead of lending it. One idle that long may have been closed
/// meanwhile by the server (a restart, a failover) or by something on the
/// way (an idle timeout), and the ping replaces it before a query fails on
/// it. Under load a connection is lent again within milliseconds and goes
/// straight to its statement: sqlx's default pinged before every one, a
/// round trip to the server each, on top of the statement and of the ping
/// sqlx makes when the connection comes back (docs/performance.md §3).
const PING_AFTER_IDLE: Duration = Duration::from_secs(1);

async fn connect_postgres(settings: &DatabaseSettings, acquire: Duration) -> Result<PgPool, StorageError> {
    let options = PgConnectOptions::from_str(&settings.url)
        .map_err(|e| StorageError::InvalidSettings { key: "database.url", message: e.to_string() })?
        .application_name("wmeter");
    PgPoolOptions::new()
        .max_connections(settings.max_connections)
        .acquire_timeout(acquire)
        .test_before_acquire(false)
        .before_acquire(|connection, meta| {
            Box::pin(async move {
                if meta.idle_for >= PING_AFTER_IDLE {
                    connection.ping().await?;
                }
                Ok(true)
            })
        })
        .connect_with(options)
        .await
        .map_err(|source| StorageError::Connect { backend: "postgres", source })
}
