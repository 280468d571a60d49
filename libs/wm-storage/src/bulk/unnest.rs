//! PostgreSQL's form of a multi-row statement: each column one array,
//! `head SELECT * FROM UNNEST($1::int8[], $2::text[]) AS v(column1, column2) tail`,
//! in place of `head VALUES ($1, $2), ($3, $4) tail`. Its text does not
//! follow the row count, so it stays prepared, and PostgreSQL parses and
//! plans it once per connection; a `VALUES` list of thousands of rows was
//! parsed and planned at every batch, with a parameter each value
//! (docs/performance.md §8). The derived table's columns keep `VALUES`'
//! names, so `head` and `tail` are the same for both forms.

use std::fmt::Write;

use super::Rows;
use crate::query::Bind;

/// One column's values, as the array bound for it.
pub(super) enum Array {
    Int(Vec<Option<i64>>),
    Real(Vec<Option<f64>>),
    Text(Vec<Option<String>>),
    Bool(Vec<bool>),
    Bytes(Vec<Vec<u8>>),
}

/// Which array a value goes to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Int,
    Real,
    Text,
    Bool,
    Bytes,
}

fn kind(value: &Bind) -> Kind {
    match value {
        Bind::Int(_) | Bind::NullInt => Kind::Int,
        Bind::Real(_) | Bind::NullReal => Kind::Real,
        Bind::Text(_) | Bind::NullText => Kind::Text,
        Bind::Bool(_) => Kind::Bool,
        Bind::Bytes(_) => Kind::Bytes,
    }
}

impl Array {
    fn new(kind: Kind, rows: usize) -> Array {
        match kind {
            Kind::Int => Array::Int(Vec::with_capacity(rows)),
            Kind::Real => Array::Real(Vec::with_capacity(rows)),
            Kind::Text => Array::Text(Vec::with_capacity(rows)),
            Kind::Bool => Array::Bool(Vec::with_capacity(rows)),
            Kind::Bytes => Array::Bytes(Vec::with_capacity(rows)),
        }
    }

    /// Its element type, as the statement casts the parameter.
    fn cast(&self) -> &'static str {
        match self {
            Array::Int(_) => "int8[]",
            Array::Real(_) => "float8[]",
            Array::Text(_) => "text[]",
            Array::Bool(_) => "bool[]",
            Array::Bytes(_) => "bytea[]",
        }
    }

    /// Appends `value`, which [`arrays`] checked is of this array's kind.
    fn push(&mut self, value: Bind) {
        match (self, value) {
            (Array::Int(a), Bind::Int(v)) => a.push(Some(v)),
            (Array::Int(a), Bind::NullInt) => a.push(None),
            (Array::Real(a), Bind::Real(v)) => a.push(Some(v)),
            (Array::Real(a), Bind::NullReal) => a.push(None),
            (Array::Text(a), Bind::Text(v)) => a.push(Some(v)),
            (Array::Text(a), Bind::NullText) => a.push(None),
            (Array::Bool(a), Bind::Bool(v)) => a.push(v),
            (Array::Bytes(a), Bind::Bytes(v)) => a.push(v),
            _ => unreachable!("arrays() checks every value's kind first"),
        }
    }
}

/// `rows`' columns as arrays, or `rows` back when a column holds values
/// of two kinds (no one array type holds them).
pub(super) fn arrays(rows: Rows) -> Result<Vec<Array>, Rows> {
    let kinds: Vec<Kind> = rows.values.iter().take(rows.width).map(kind).collect();
    if rows.values.iter().enumerate().any(|(i, value)| kind(value) != kinds[i % rows.width]) {
        return Err(rows);
    }
    let mut arrays: Vec<Array> = kinds.iter().map(|k| Array::new(*k, rows.len())).collect();
    for (i, value) in rows.values.into_iter().enumerate() {
        arrays[i % rows.width].push(value);
    }
    Ok(arrays)
}

/// `head SELECT * FROM UNNEST($1::…[], …) AS v(column1, …) tail`.
pub(super) fn statement(head: &str, tail: &str, arrays: &[Array]) -> String {
    let mut sql = format!("{head} SELECT * FROM UNNEST(");
    for (i, array) in arrays.iter().enumerate() {
        let sep = if i > 0 { ", " } else { "" };
        let _ = write!(sql, "{sep}${}::{}", i + 1, array.cast());
    }
    sql.push_str(") AS v(");
    for i in 1..=arrays.len() {
        let sep = if i > 1 { ", " } else { "" };
        let _ = write!(sql, "{sep}column{i}");
    }
    sql.push(')');
    sql.push_str(tail);
    sql
}

/// Binds each of `$arrays` to `$query` (a `query` or a `query_as`), in order.
macro_rules! bind_arrays {
    ($query:expr, $arrays:expr) => {{
        let mut query = $query;
        for array in $arrays {
            query = match array {
                Array::Int(v) => query.bind(v),
                Array::Real(v) => query.bind(v),
                Array::Text(v) => query.bind(v),
                Array::Bool(v) => query.bind(v),
                Array::Bytes(v) => query.bind(v),
            };
        }
        query
    }};
}
pub(super) use bind_arrays;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_become_one_array_a_column() {
        let mut rows = Rows::new(3);
        rows.push([Bind::Int(1), Bind::from("a"), Bind::Bool(true)]);
        rows.push([Bind::NullInt, Bind::NullText, Bind::Bool(false)]);
        let Ok(arrays) = arrays(rows) else { panic!("one kind a column") };
        let sql = statement("INSERT INTO t (a, b, c)", " ON CONFLICT DO NOTHING", &arrays);
        assert_eq!(
            sql,
            "INSERT INTO t (a, b, c) SELECT * FROM UNNEST($1::int8[], $2::text[], $3::bool[]) \
             AS v(column1, column2, column3) ON CONFLICT DO NOTHING"
        );
        assert!(matches!(&arrays[0], Array::Int(a) if *a == [Some(1), None]));
        assert!(matches!(&arrays[1], Array::Text(a) if *a == [Some("a".to_owned()), None]));
        assert!(matches!(&arrays[2], Array::Bool(a) if *a == [true, false]));
    }

    #[test]
    fn a_column_of_two_kinds_stays_values() {
        let mut rows = Rows::new(1);
        rows.push([Bind::Int(1)]);
        rows.push([Bind::NullText]);
        let back = arrays(rows).err().expect("no one array type");
        assert_eq!(back.values, [Bind::Int(1), Bind::NullText]);
    }
}
