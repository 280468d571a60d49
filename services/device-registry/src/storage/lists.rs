//! Reading devices: one by id or serial, lists paged by `registeredAt`
//! (DESIGN §6), and counts that never scan a table.

use sqlx::{FromRow, postgres::PgRow, sqlite::SqliteRow};
use wm_storage::{Db, with_pool};

use super::{
    StorageError,
    rows::{GATEWAY_COLUMNS, GatewayRow, METER_COLUMNS, MeterRow},
};

/// Which devices a list or count covers. Times are microseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    All,
    /// Not seen since `before` (or never seen and registered before it).
    Lost {
        before: i64,
    },
    /// Switched off by a confirmed shutdown (meters).
    Down,
    /// With a raised alert (meters).
    Critical,
    /// Lost, down or critical, each meter once.
    Unhealthy {
        before: i64,
    },
}

/// One page of a list: `max` devices from `start` (DESIGN §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Page {
    pub max: i64,
    /// `registeredAt` in microseconds.
    pub start: Option<i64>,
    pub reverse: bool,
}

/// A table of devices.
pub trait Table: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin {
    const TABLE: &'static str;
    const COLUMNS: &'static str;
    /// The `registry_counters` row of its total.
    const COUNTER: &'static str;
}

impl Table for GatewayRow {
    const TABLE: &'static str = "gateways";
    const COLUMNS: &'static str = GATEWAY_COLUMNS;
    const COUNTER: &'static str = "gateways";
}

impl Table for MeterRow {
    const TABLE: &'static str = "meters";
    const COLUMNS: &'static str = METER_COLUMNS;
    const COUNTER: &'static str = "meters";
}

/// The device with this id.
pub async fn by_id<T: Table>(db: &Db, id: &str) -> Result<Option<T>, StorageError> {
    one(db, "id", id).await
}

/// The device with this canonical serial number.
pub async fn by_serial<T: Table>(db: &Db, serial: &str) -> Result<Option<T>, StorageError> {
    one(db, "serial_number", serial).await
}

async fn one<T: Table>(db: &Db, column: &'static str, value: &str) -> Result<Option<T>, StorageError> {
    let sql = format!("SELECT {} FROM {} WHERE {column} = $1", T::COLUMNS, T::TABLE);
    let row = with_pool!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(value).fetch_optional(pool).await)?;
    Ok(row)
}

/// The devices of `filter` on `page`. Without `start`, the newest first;
/// with `reverse`, those registered before `start`, newest first;
/// otherwise those registered at or after `start`, oldest first.
pub async fn list<T: Table>(db: &Db, filter: Filter, page: Page) -> Result<Vec<T>, StorageError> {
    let mut binds = Vec::new();
    let mut conditions: Vec<String> = condition(filter, &mut binds).into_iter().collect();
    let order = match (page.start, page.reverse) {
        (None, _) => "DESC",
        (Some(start), true) => {
            binds.push(start);
            conditions.push(format!("registered_at < ${}", binds.len()));
            "DESC"
        }
        (Some(start), false) => {
            binds.push(start);
            conditions.push(format!("registered_at >= ${}", binds.len()));
            "ASC"
        }
    };
    binds.push(page.max);
    let sql = format!(
        "SELECT {} FROM {}{} ORDER BY registered_at {order} LIMIT ${}",
        T::COLUMNS,
        T::TABLE,
        where_clause(&conditions),
        binds.len()
    );
    fetch(db, sql, binds.into_iter().map(Bind::Int).collect()).await
}

/// How many devices `filter` covers: a maintained total, or an indexed
/// range.
pub async fn count<T: Table>(db: &Db, filter: Filter) -> Result<i64, StorageError> {
    if filter == Filter::All {
        let sql = "SELECT value FROM registry_counters WHERE name = $1";
        return Ok(with_pool!(db, pool => sqlx::query_scalar(sql).bind(T::COUNTER).fetch_one(pool).await)?);
    }
    let mut binds = Vec::new();
    let conditions: Vec<String> = condition(filter, &mut binds).into_iter().collect();
    let sql = format!("SELECT COUNT(*) FROM {}{}", T::TABLE, where_clause(&conditions));
    let n: i64 = with_pool!(db, pool => {
        let mut query = sqlx::query_scalar(sqlx::AssertSqlSafe(sql));
        for bind in binds {
            query = query.bind(bind);
        }
        query.fetch_one(pool).await
    })?;
    Ok(n)
}

/// A value bound to a placeholder.
#[derive(Clone, Debug, PartialEq)]
pub enum Bind {
    Int(i64),
    Real(f64),
    Text(String),
}

/// The rows of `sql`, binding `binds` to `$1…` in order.
pub async fn fetch<T: Table>(db: &Db, sql: String, binds: Vec<Bind>) -> Result<Vec<T>, StorageError> {
    let rows = with_pool!(db, pool => {
        let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql));
        for bind in binds {
            query = match bind {
                Bind::Int(v) => query.bind(v),
                Bind::Real(v) => query.bind(v),
                Bind::Text(v) => query.bind(v),
            };
        }
        query.fetch_all(pool).await
    })?;
    Ok(rows)
}

fn condition(filter: Filter, binds: &mut Vec<i64>) -> Option<String> {
    let mut lost = |before: i64| {
        binds.push(before);
        format!("last_activity < ${}", binds.len())
    };
    match filter {
        Filter::All => None,
        Filter::Lost { before } => Some(lost(before)),
        Filter::Down => Some("device_status = 'Down'".to_owned()),
        Filter::Critical => Some("critical = TRUE".to_owned()),
        Filter::Unhealthy { before } => {
            Some(format!("({} OR device_status = 'Down' OR critical = TRUE)", lost(before)))
        }
    }
}

fn where_clause(conditions: &[String]) -> String {
    if conditions.is_empty() { String::new() } else { format!(" WHERE {}", conditions.join(" AND ")) }
}
