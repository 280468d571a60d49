//! Many rows in a few statements. Each statement is a round trip to
//! PostgreSQL, and on SQLite two thread hand-offs to the connection's worker
//! (docs/performance.md §1), so a batch's rows go as multi-row
//! `… VALUES (…), (…) …` statements on SQLite, one statement of an array
//! a column on PostgreSQL (`bulk/unnest.rs`), and an empty table is loaded with
//! `COPY` on PostgreSQL.
//!
//! The `VALUES` statements' text follows the row count, so they are not
//! kept prepared (`persistent(false)`): each connection caches 100
//! statements, and a cached one of 500 rows keeps its compiled program,
//! about a quarter of a MiB in SQLite (100 of 400–500 rows took 28 MiB).
//! Cached, the batches' varying counts would fill every connection's cache
//! with programs used once; preparing one again costs far less than
//! running it. (The soak's memory growth turned out to be glibc's,
//! docs/performance.md §5: this bound moved it little.)

use std::fmt::Write;

mod unnest;

use unnest::{Array, bind_arrays};

use crate::{StorageError, Tx, bind_each, query::Bind, query::Row, with_tx};

/// Most values bound in one statement: under SQLite's 32,766 and
/// PostgreSQL's 65,535.
const MAX_BINDS: usize = 30_000;

/// Rows of `width` values, in order.
#[derive(Clone, Debug)]
pub struct Rows {
    width: usize,
    values: Vec<Bind>,
}

impl Rows {
    pub fn new(width: usize) -> Self {
        Self { width: width.max(1), values: Vec::new() }
    }

    /// Adds a row; it must hold `width` values.
    pub fn push(&mut self, row: impl IntoIterator<Item = Bind>) {
        let before = self.values.len();
        self.values.extend(row);
        debug_assert_eq!(self.values.len() - before, self.width, "a row of the wrong width");
    }

    pub fn len(&self) -> usize {
        self.values.len() / self.width
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// `head VALUES ($1, $2), ($3, $4) tail`, as many statements as the
    /// bind limit needs; `?` instead of `$n` when `anonymous`.
    fn statements(self, head: &str, tail: &str, anonymous: bool) -> Vec<(String, Vec<Bind>)> {
        let per_statement = (MAX_BINDS / self.width).max(1) * self.width;
        let mut out = Vec::new();
        let mut values = self.values.into_iter().peekable();
        while values.peek().is_some() {
            let chunk: Vec<Bind> = values.by_ref().take(per_statement).collect();
            let mut sql = format!("{head} VALUES ");
            for row in 0..chunk.len() / self.width {
                sql.push_str(if row == 0 { "(" } else { ", (" });
                for column in 0..self.width {
                    let sep = if column == 0 { "" } else { ", " };
                    sql.push_str(sep);
                    push_placeholder(&mut sql, row * self.width + column + 1, anonymous);
                }
                sql.push(')');
            }
            sql.push_str(tail);
            out.push((sql, chunk));
        }
        out
    }
}

/// SQLite finds the index of a `$n` parameter by a linear search of the
/// statement's names, which makes binding thousands of them quadratic; plain
/// `?`s are bound in order without a name. PostgreSQL knows only `$n`.
fn anonymous(tx: &Tx) -> bool {
    matches!(tx, Tx::Sqlite(..))
}

/// The `n`th placeholder (from 1) of a statement written by hand for
/// `backend`, as this module writes its own: `?` on SQLite, `$n` on
/// PostgreSQL.
pub fn placeholder(backend: crate::Backend, n: usize) -> String {
    let mut sql = String::new();
    push_placeholder(&mut sql, n, matches!(backend, crate::Backend::Sqlite));
    sql
}

fn push_placeholder(sql: &mut String, n: usize, anonymous: bool) {
    if anonymous {
        sql.push('?');
    } else {
        let _ = write!(sql, "${n}");
    }
}

/// Runs `head VALUES (…), (…) tail` over `rows` (an `INSERT`, or an
/// `UPDATE … FROM (VALUES …) AS v …` whose values are `v.column1…`); on
/// PostgreSQL `head SELECT * FROM UNNEST(…) AS v(column1, …) tail`, with
/// the same columns (`bulk/unnest.rs`). `head` and `tail` hold no placeholders.
/// Returns the rows changed.
pub async fn execute(tx: &mut Tx, head: &str, tail: &str, rows: Rows) -> Result<u64, StorageError> {
    if rows.is_empty() {
        return Ok(0);
    }
    let rows = match &mut *tx {
        Tx::Postgres(conn) => match unnest::arrays(rows) {
            Ok(arrays) => {
                let sql = unnest::statement(head, tail, &arrays);
                let query = bind_arrays!(sqlx::query(sqlx::AssertSqlSafe(sql)), arrays);
                return Ok(query.execute(&mut **conn).await?.rows_affected());
            }
            Err(rows) => rows,
        },
        Tx::Sqlite(..) => rows,
    };
    let mut changed = 0;
    for (sql, binds) in rows.statements(head, tail, anonymous(tx)) {
        changed += with_tx!(tx, conn => bind_each!(sqlx::query(sqlx::AssertSqlSafe(sql)), binds)
            .persistent(false)
            .execute(&mut **conn)
            .await
            .map(|r| r.rows_affected()))?;
    }
    Ok(changed)
}

/// Like [`execute`], returning what the statements select (`RETURNING …`,
/// or a `SELECT … FROM (VALUES …)`).
pub async fn fetch<T: Row>(tx: &mut Tx, head: &str, tail: &str, rows: Rows) -> Result<Vec<T>, StorageError> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let rows = match &mut *tx {
        Tx::Postgres(conn) => match unnest::arrays(rows) {
            Ok(arrays) => {
                let sql = unnest::statement(head, tail, &arrays);
                return Ok(bind_arrays!(sqlx::query_as(sqlx::AssertSqlSafe(sql)), arrays)
                    .fetch_all(&mut **conn)
                    .await?);
            }
            Err(rows) => rows,
        },
        Tx::Sqlite(..) => rows,
    };
    let mut out = Vec::new();
    for (sql, binds) in rows.statements(head, tail, anonymous(tx)) {
        out.extend(with_tx!(tx, conn => bind_each!(sqlx::query_as(sqlx::AssertSqlSafe(sql)), binds)
            .persistent(false)
            .fetch_all(&mut **conn)
            .await)?);
    }
    Ok(out)
}

/// The rows of `select` whose `column` is one of `values`:
/// `select WHERE column IN (…)`, in as many statements as needed.
pub async fn fetch_in<T: Row>(
    tx: &mut Tx,
    select: &str,
    column: &str,
    values: Vec<Bind>,
) -> Result<Vec<T>, StorageError> {
    fetch_in_with(tx, select, column, values, "").await
}

/// [`fetch_in`] with `tail` after the list (more conditions, or
/// `FOR UPDATE`), which holds no placeholders:
/// `select WHERE column IN (…) tail`.
pub async fn fetch_in_with<T: Row>(
    tx: &mut Tx,
    select: &str,
    column: &str,
    values: Vec<Bind>,
    tail: &str,
) -> Result<Vec<T>, StorageError> {
    let mut out = Vec::new();
    let anonymous = anonymous(tx);
    for chunk in values.chunks(MAX_BINDS) {
        let mut sql = format!("{select} WHERE {column} IN (");
        for i in 1..=chunk.len() {
            if i > 1 {
                sql.push_str(", ");
            }
            push_placeholder(&mut sql, i, anonymous);
        }
        sql.push(')');
        sql.push_str(tail);
        out.extend(with_tx!(tx, conn => bind_each!(sqlx::query_as(sqlx::AssertSqlSafe(sql)), chunk.iter().cloned())
            .persistent(false)
            .fetch_all(&mut **conn)
            .await)?);
    }
    Ok(out)
}

/// Loads `rows` into `table`'s `columns`: `COPY … FROM STDIN` on
/// PostgreSQL, multi-row `INSERT`s on SQLite. For loading, not for rows that
/// may already be there: `COPY` has no `ON CONFLICT`.
pub async fn copy(tx: &mut Tx, table: &str, columns: &[&str], rows: Rows) -> Result<u64, StorageError> {
    match tx {
        Tx::Sqlite(..) => {
            let head = format!("INSERT INTO {table} ({})", columns.join(", "));
            execute(tx, &head, "", rows).await
        }
        Tx::Postgres(conn) => {
            let statement = format!("COPY {table} ({}) FROM STDIN", columns.join(", "));
            let mut copy = conn.copy_in_raw(&statement).await?;
            let mut text = String::new();
            for (i, value) in rows.values.iter().enumerate() {
                if i > 0 {
                    text.push(if i % rows.width == 0 { '\n' } else { '\t' });
                }
                copy_text(&mut text, value);
                if text.len() >= 1 << 20 {
                    copy.send(std::mem::take(&mut text).into_bytes()).await?;
                }
            }
            if !rows.values.is_empty() {
                text.push('\n');
            }
            copy.send(text.into_bytes()).await?;
            Ok(copy.finish().await?)
        }
    }
}

/// A value in `COPY`'s text format.
fn copy_text(out: &mut String, value: &Bind) {
    match value {
        Bind::Int(v) => {
            let _ = write!(out, "{v}");
        }
        Bind::Real(v) => {
            let _ = write!(out, "{v:?}");
        }
        Bind::Bool(v) => out.push(if *v { 't' } else { 'f' }),
        Bind::Text(v) => {
            for c in v.chars() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    c => out.push(c),
                }
            }
        }
        Bind::Bytes(v) => {
            out.push_str("\\\\x");
            for b in v {
                let _ = write!(out, "{b:02x}");
            }
        }
        Bind::NullInt | Bind::NullReal | Bind::NullText => out.push_str("\\N"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_become_numbered_value_lists_within_the_bind_limit() {
        let mut rows = Rows::new(2);
        rows.push([Bind::Int(1), Bind::from("a")]);
        rows.push([Bind::Int(2), Bind::NullText]);
        let sqlite = rows.clone().statements("INSERT INTO t (a, b)", "", true);
        assert_eq!(sqlite[0].0, "INSERT INTO t (a, b) VALUES (?, ?), (?, ?)");
        let statements = rows.statements("INSERT INTO t (a, b)", " ON CONFLICT DO NOTHING", false);
        assert_eq!(statements.len(), 1);
        assert_eq!(statements[0].0, "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4) ON CONFLICT DO NOTHING");
        assert_eq!(statements[0].1, vec![Bind::Int(1), Bind::from("a"), Bind::Int(2), Bind::NullText]);

        let mut many = Rows::new(7);
        for i in 0..10_000 {
            many.push((0..7).map(|c| Bind::Int(i * 7 + c)));
        }
        let statements = many.statements("INSERT INTO t", "", false);
        let sizes: Vec<usize> = statements.iter().map(|(_, binds)| binds.len()).collect();
        assert_eq!(sizes, vec![29_995, 29_995, 10_010]);
        assert!(statements[2].0.ends_with("($10004, $10005, $10006, $10007, $10008, $10009, $10010)"));
    }

    #[test]
    fn copy_text_escapes_what_the_format_reserves() {
        let mut out = String::new();
        for value in
            [Bind::from("a\tb\\c\nd"), Bind::NullText, Bind::Bool(true), Bind::Bytes(vec![0, 255]), Bind::Real(1.0)]
        {
            copy_text(&mut out, &value);
            out.push('|');
        }
        assert_eq!(out, "a\\tb\\\\c\\nd|\\N|t|\\\\x00ff|1.0|");
    }
}
