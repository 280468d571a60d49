//! Telemetry ingest's tables, every function written once for both
//! databases.

pub mod commands;
pub mod directory;
pub mod reads;
pub mod retention;
pub mod telemetry;

/// Runs one statement in a transaction and returns the rows it changed.
macro_rules! execute {
    ($tx:expr, $sql:expr $(, $bind:expr)* $(,)?) => {
        wm_storage::with_tx!($tx, conn => sqlx::query($sql)$(.bind($bind))*.execute(&mut **conn).await.map(|r| r.rows_affected()))
    };
}
pub(crate) use execute;
