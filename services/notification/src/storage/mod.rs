//! The notification service's tables, written once for both databases.

pub mod directory;
pub mod inbox;

/// Runs one statement in a transaction and returns the rows it changed.
macro_rules! execute {
    ($tx:expr, $sql:expr $(, $bind:expr)* $(,)?) => {
        wm_storage::with_tx!($tx, conn => sqlx::query($sql)$(.bind($bind))*.execute(&mut **conn).await.map(|r| r.rows_affected()))
    };
}
pub(crate) use execute;
