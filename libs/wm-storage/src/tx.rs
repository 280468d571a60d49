//! Transactions on either backend, written once with [`with_tx!`](crate::with_tx).

use sqlx::{Postgres, Sqlite, Transaction};

use crate::Db;

/// An open transaction on one of the two databases. Dropped without
/// [`commit`](Tx::commit), it rolls back.
#[derive(Debug)]
pub enum Tx {
    Sqlite(Transaction<'static, Sqlite>),
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
            $crate::Tx::Sqlite($conn) => $body,
            $crate::Tx::Postgres($conn) => $body,
        }
    };
}

impl Db {
    /// Begins a transaction that will write. On SQLite it takes the write
    /// lock at once (`BEGIN IMMEDIATE`), so it never fails half-way on a
    /// busy database; on PostgreSQL it is an ordinary `BEGIN`.
    pub async fn begin_write(&self) -> Result<Tx, sqlx::Error> {
        match self {
            Db::Sqlite(pool) => pool.begin_with("BEGIN IMMEDIATE").await.map(Tx::Sqlite),
            Db::Postgres(pool) => pool.begin().await.map(Tx::Postgres),
        }
    }
}

impl Tx {
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        with_tx!(self, tx => tx.commit().await)
    }
}
