//! Queries assembled at run time (optional filters, keyset paging): the SQL
//! text is built from fixed fragments with `$n` placeholders, and the values
//! are bound in order, on either database.

use sqlx::{FromRow, postgres::PgRow, sqlite::SqliteRow};

use crate::{Db, with_pool};

/// A value bound to the next placeholder.
#[derive(Clone, Debug, PartialEq)]
pub enum Bind {
    Int(i64),
    Real(f64),
    Text(String),
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
pub async fn fetch_all<T: Row>(db: &Db, sql: String, binds: Vec<Bind>) -> Result<Vec<T>, sqlx::Error> {
    with_pool!(db, pool => {
        let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql));
        for bind in binds {
            query = match bind {
                Bind::Int(v) => query.bind(v),
                Bind::Real(v) => query.bind(v),
                Bind::Text(v) => query.bind(v),
            };
        }
        query.fetch_all(pool).await
    })
}

/// The single number `sql` selects.
pub async fn fetch_count(db: &Db, sql: String, binds: Vec<Bind>) -> Result<i64, sqlx::Error> {
    with_pool!(db, pool => {
        let mut query = sqlx::query_scalar(sqlx::AssertSqlSafe(sql));
        for bind in binds {
            query = match bind {
                Bind::Int(v) => query.bind(v),
                Bind::Real(v) => query.bind(v),
                Bind::Text(v) => query.bind(v),
            };
        }
        query.fetch_one(pool).await
    })
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
}
