//! Queries assembled at run time (optional filters, keyset paging): the SQL
//! text is built from fixed fragments with `$n` placeholders, and the values
//! are bound in order, on either database.

use sqlx::{FromRow, postgres::PgRow, sqlite::SqliteRow};

use crate::{Db, StorageError, with_pool};

/// A value bound to the next placeholder. A NULL carries its column's type,
/// which PostgreSQL needs to know.
#[derive(Clone, Debug, PartialEq)]
pub enum Bind {
    Int(i64),
    Real(f64),
    Text(String),
    Bool(bool),
    Bytes(Vec<u8>),
    NullInt,
    NullReal,
    NullText,
}

impl From<i64> for Bind {
    fn from(v: i64) -> Self {
        Bind::Int(v)
    }
}

impl From<f64> for Bind {
    fn from(v: f64) -> Self {
        Bind::Real(v)
    }
}

impl From<bool> for Bind {
    fn from(v: bool) -> Self {
        Bind::Bool(v)
    }
}

impl From<&str> for Bind {
    fn from(v: &str) -> Self {
        Bind::Text(v.to_owned())
    }
}

impl From<String> for Bind {
    fn from(v: String) -> Self {
        Bind::Text(v)
    }
}

impl From<&String> for Bind {
    fn from(v: &String) -> Self {
        Bind::Text(v.clone())
    }
}

impl From<Vec<u8>> for Bind {
    fn from(v: Vec<u8>) -> Self {
        Bind::Bytes(v)
    }
}

impl From<Option<&str>> for Bind {
    fn from(v: Option<&str>) -> Self {
        v.map_or(Bind::NullText, Bind::from)
    }
}

impl From<&Option<String>> for Bind {
    fn from(v: &Option<String>) -> Self {
        v.as_deref().into()
    }
}

impl From<Option<String>> for Bind {
    fn from(v: Option<String>) -> Self {
        v.map_or(Bind::NullText, Bind::Text)
    }
}

impl From<Option<i64>> for Bind {
    fn from(v: Option<i64>) -> Self {
        v.map_or(Bind::NullInt, Bind::Int)
    }
}

impl From<Option<f64>> for Bind {
    fn from(v: Option<f64>) -> Self {
        v.map_or(Bind::NullReal, Bind::Real)
    }
}

/// Binds each of `$binds` to `$query`, in order.
#[macro_export]
macro_rules! bind_each {
    ($query:expr, $binds:expr) => {{
        let mut query = $query;
        for bind in $binds {
            query = match bind {
                $crate::query::Bind::Int(v) => query.bind(v),
                $crate::query::Bind::Real(v) => query.bind(v),
                $crate::query::Bind::Text(v) => query.bind(v),
                $crate::query::Bind::Bool(v) => query.bind(v),
                $crate::query::Bind::Bytes(v) => query.bind(v),
                $crate::query::Bind::NullInt => query.bind(None::<i64>),
                $crate::query::Bind::NullReal => query.bind(None::<f64>),
                $crate::query::Bind::NullText => query.bind(None::<String>),
            };
        }
        query
    }};
}

/// Implements `sqlx::FromRow` on both databases' rows for a struct whose
/// fields are columns of the same names, as `#[derive(sqlx::FromRow)]` would.
/// `..field` decodes that field, itself a row type, from the same row (the
/// derive's `#[sqlx(flatten)]`). A field left out or misnamed does not compile.
///
/// The derive is not used because its proc macro builds a second sqlx, with
/// both database drivers, tokio and rustls, for the compiler: about 40 of a
/// first build's 650 CPU-seconds (docs/performance.md §7).
///
/// ```ignore
/// struct Row { id: String, name: Option<String> }
/// wm_storage::from_row!(Row { id, name });
/// struct Counted { row: Row, total: i64 }
/// wm_storage::from_row!(Counted { ..row, total });
/// ```
#[macro_export]
macro_rules! from_row {
    (@impl $row:ty, $name:ident { $($flat:ident)* } { $($field:ident)* }) => {
        impl<'r> $crate::__sqlx::FromRow<'r, $row> for $name {
            fn from_row(row: &'r $row) -> ::std::result::Result<Self, $crate::__sqlx::Error> {
                #[allow(unused_imports)]
                use $crate::__sqlx::Row as _;
                Ok(Self {
                    $($flat: $crate::__sqlx::FromRow::from_row(row)?,)*
                    $($field: row.try_get(stringify!($field))?,)*
                })
            }
        }
    };
    ($name:ident { $(..$flat:ident,)* $($field:ident),* $(,)? }) => {
        $crate::from_row!(@impl $crate::__sqlx::sqlite::SqliteRow, $name { $($flat)* } { $($field)* });
        $crate::from_row!(@impl $crate::__sqlx::postgres::PgRow, $name { $($flat)* } { $($field)* });
    };
}

/// A row type both databases can decode.
pub trait Row: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin {}

impl<T> Row for T where T: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin {}

/// Conditions and their values, numbering placeholders as they are added.
#[derive(Debug, Default)]
pub struct Conditions {
    conditions: Vec<String>,
    binds: Vec<Bind>,
}

impl Conditions {
    /// Binds `value` and returns its placeholder (`$1`, `$2`, …).
    pub fn bind(&mut self, value: Bind) -> String {
        self.binds.push(value);
        format!("${}", self.binds.len())
    }

    /// Binds a row limit and returns it as `(SELECT $n)`. PostgreSQL
    /// cannot see a sub-select's value when it plans, so every execution
    /// has the same estimate, and it keeps one generic plan instead of
    /// planning the statement anew at each execution, as it does with
    /// `LIMIT $n` (docs/performance.md §3). SQLite plans it once either way.
    pub fn limit(&mut self, rows: i64) -> String {
        format!("(SELECT {})", self.bind(Bind::Int(rows)))
    }

    /// Adds a condition written by `condition` from the placeholder of `value`.
    pub fn push(&mut self, value: Bind, condition: impl FnOnce(&str) -> String) {
        let placeholder = self.bind(value);
        self.conditions.push(condition(&placeholder));
    }

    /// Adds a condition without a value.
    pub fn push_fixed(&mut self, condition: impl Into<String>) {
        self.conditions.push(condition.into());
    }

    /// ` WHERE a AND b`, or nothing.
    pub fn where_clause(&self) -> String {
        if self.conditions.is_empty() { String::new() } else { format!(" WHERE {}", self.conditions.join(" AND ")) }
    }

    pub fn into_binds(self) -> Vec<Bind> {
        self.binds
    }
}

/// The rows of `sql`, binding `binds` to `$1…` in order.
pub async fn fetch_all<T: Row>(db: &Db, sql: String, binds: Vec<Bind>) -> Result<Vec<T>, StorageError> {
    Ok(
        with_pool!(db, pool => crate::bind_each!(sqlx::query_as(sqlx::AssertSqlSafe(sql)), binds).fetch_all(pool).await)?,
    )
}

/// The first row of `sql`, if any, binding `binds` to `$1…` in order.
pub async fn fetch_optional<T: Row>(db: &Db, sql: String, binds: Vec<Bind>) -> Result<Option<T>, StorageError> {
    Ok(
        with_pool!(db, pool => crate::bind_each!(sqlx::query_as(sqlx::AssertSqlSafe(sql)), binds).fetch_optional(pool).await)?,
    )
}

/// Sends every row of `sql` to `sink` as the database sends it, without
/// holding them all (an export of a million rows), then the error if the
/// query failed part way; stops early when the receiver is gone.
pub async fn send_rows<T: Row>(
    db: &Db,
    sql: String,
    binds: Vec<Bind>,
    sink: &tokio::sync::mpsc::Sender<Result<T, StorageError>>,
) {
    use futures::TryStreamExt;
    let sent = with_pool!(db, pool => {
        let mut rows = crate::bind_each!(sqlx::query_as::<_, T>(sqlx::AssertSqlSafe(sql)), binds).fetch(pool);
        loop {
            match rows.try_next().await {
                Ok(Some(row)) => {
                    if sink.send(Ok(row)).await.is_err() {
                        break Ok(());
                    }
                }
                Ok(None) => break Ok(()),
                Err(e) => break Err(StorageError::from(e)),
            }
        }
    });
    if let Err(e) = sent {
        let _ = sink.send(Err(e)).await;
    }
}

/// `text` as a `LIKE` pattern (with `ESCAPE '\'`) that matches it
/// literally: the backslash, `%` and `_` escaped.
pub fn like_literal(text: &str) -> String {
    text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

/// The single number `sql` selects.
pub async fn fetch_count(db: &Db, sql: String, binds: Vec<Bind>) -> Result<i64, StorageError> {
    Ok(
        with_pool!(db, pool => crate::bind_each!(sqlx::query_scalar(sqlx::AssertSqlSafe(sql)), binds).fetch_one(pool).await)?,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_in_order() {
        let mut c = Conditions::default();
        c.push(Bind::Int(5), |p| format!("a < {p}"));
        c.push_fixed("b = TRUE");
        c.push(Bind::Text("x".into()), |p| format!("c = {p}"));
        assert_eq!(c.where_clause(), " WHERE a < $1 AND b = TRUE AND c = $2");
        assert_eq!(c.bind(Bind::Int(20)), "$3");
        assert_eq!(c.into_binds(), vec![Bind::Int(5), Bind::Text("x".into()), Bind::Int(20)]);
    }

    #[test]
    fn a_like_literal_escapes_what_like_would_read_as_wildcards() {
        assert_eq!(like_literal(r"50%_a\b"), r"50\%\_a\\b");
        assert_eq!(like_literal("SM001"), "SM001");
    }
}
