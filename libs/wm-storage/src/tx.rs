//! Transactions on either backend, written once with [`with_tx!`](crate::with_tx).

use std::panic::Location;

use sqlx::{Postgres, Sqlite, Transaction};

use crate::{
    Db, StorageError,
    writer::{Turn, Writer},
};

/// An open transaction on one of the two databases. Dropped without
/// [`commit`](Tx::commit), it rolls back. A SQLite one holds a [`Turn`] at
/// its file's [`Writer`] until then.
#[derive(Debug)]
pub enum Tx {
    Sqlite(Transaction<'static, Sqlite>, Turn),
    Postgres(Transaction<'static, Postgres>),
}

/// Runs `$body` with `$conn` bound to the connection of whichever
/// transaction `$tx` holds, like [`with_pool!`](crate::with_pool) for pools.
///
/// ```ignore
/// with_tx!(tx, conn => sqlx::query("DELETE FROM t WHERE id = $1").bind(id).execute(&mut **conn).await)?;
/// ```
#[macro_export]
macro_rules! with_tx {
    ($tx:expr, $conn:ident => $body:expr) => {
        match $tx {
            $crate::Tx::Sqlite($conn, _) => $body,
            $crate::Tx::Postgres($conn) => $body,
        }
    };
}

/// Runs one statement in the transaction `$tx`, binding each `$bind` in
/// order, and returns the rows it changed, or the [`StorageError`].
///
/// ```ignore
/// execute!(tx, "UPDATE gateways SET session_online = $1 WHERE id = $2", online, id)?;
/// ```
#[macro_export]
macro_rules! execute {
    ($tx:expr, $sql:expr $(, $bind:expr)* $(,)?) => {
        $crate::with_tx!($tx, conn => $crate::__sqlx::query($sql)$(.bind($bind))*
            .execute(&mut **conn)
            .await
            .map(|r| r.rows_affected())
            .map_err($crate::StorageError::from))
    };
}

/// Runs one statement in a write transaction of its own
/// ([`Db::begin_write`]) and returns the rows it changed. On SQLite it waits
/// for its turn at the file's [`Writer`], in line behind the transactions
/// already waiting, where a statement on a pool's connection would poll for
/// the file's lock in SQLite's busy handler: under ingest the writer is
/// held most of the time, and such a statement waited seconds, past the
/// busy timeout once (docs/performance.md §5).
///
/// ```ignore
/// execute_write!(db, "UPDATE users SET theme = $1 WHERE id = $2", theme, id).await?;
/// ```
#[macro_export]
macro_rules! execute_write {
    ($db:expr, $sql:expr $(, $bind:expr)* $(,)?) => {
        async {
            let mut tx = $db.begin_write().await?;
            let rows = $crate::execute!(&mut tx, $sql $(, $bind)*)?;
            tx.commit().await?;
            ::std::result::Result::<u64, $crate::StorageError>::Ok(rows)
        }
    };
}

impl Db {
    /// Begins a transaction that will write. On SQLite it takes the write
    /// lock at once (`BEGIN IMMEDIATE`), so it never fails half-way on a
    /// busy database; on PostgreSQL it is an ordinary `BEGIN`. On SQLite it
    /// runs on the [`Writer`]'s own connection, and the turn is counted
    /// against the caller's line (`wmeter_db_writer_*`).
    #[track_caller]
    pub fn begin_write(&self) -> impl Future<Output = Result<Tx, StorageError>> + Send + '_ {
        let site = Location::caller();
        async move {
            match self {
                Db::Sqlite(pool) => {
                    let turn = Writer::of(pool).turn_for(site).await;
                    let tx = turn.pool().begin_with("BEGIN IMMEDIATE").await?;
                    Ok(Tx::Sqlite(tx, turn))
                }
                Db::Postgres(pool) => Ok(pool.begin().await.map(Tx::Postgres)?),
            }
        }
    }
}

impl Tx {
    pub fn backend(&self) -> crate::Backend {
        match self {
            Tx::Sqlite(..) => crate::Backend::Sqlite,
            Tx::Postgres(_) => crate::Backend::Postgres,
        }
    }

    /// What ends a `SELECT` that locks the rows it reads until the
    /// transaction ends: ` FOR UPDATE` on PostgreSQL; nothing on SQLite,
    /// whose writer lock already holds the whole file.
    pub fn lock_rows(&self) -> &'static str {
        match self {
            Tx::Sqlite(..) => "",
            Tx::Postgres(_) => " FOR UPDATE",
        }
    }

    pub async fn commit(self) -> Result<(), StorageError> {
        Ok(with_tx!(self, tx => tx.commit().await)?)
    }
}
