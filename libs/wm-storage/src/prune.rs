//! Deleting old rows a few thousand at a time, each batch in a write
//! transaction of its own: a large backlog never holds the writer (on
//! SQLite, the whole file) for long, and never waits in SQLite's busy
//! handler beside the services' own writes.

use crate::{Db, StorageError, execute_write};

/// Rows deleted per transaction.
const BATCH: i64 = 5_000;

/// Deletes every row of `table` whose `column` is below `before`; `key` is
/// the table's primary key (columns, comma-separated). Returns how many.
pub async fn older_than(
    db: &Db,
    table: &'static str,
    column: &'static str,
    key: &'static str,
    before: i64,
) -> Result<u64, StorageError> {
    let sql = statement(table, column, key);
    let mut deleted = 0;
    loop {
        let n = execute_write!(db, sqlx::AssertSqlSafe(sql.clone()), before, BATCH).await?;
        deleted += n;
        if n < u64::try_from(BATCH).unwrap_or(u64::MAX) {
            return Ok(deleted);
        }
    }
}

/// The statement [`older_than`] runs for each batch, its bounds `$1` (the
/// time) and `$2` (the batch's size). It finds the batch's rows by `column`:
/// without an index on it, each batch reads the whole table in the writer's
/// turn (a test of each pruned table's plan holds this).
pub fn statement(table: &str, column: &str, key: &str) -> String {
    // `DELETE … LIMIT` is not portable; a keyed subquery is.
    format!("DELETE FROM {table} WHERE ({key}) IN (SELECT {key} FROM {table} WHERE {column} < $1 LIMIT $2)")
}
