//! Reading devices: one by id or serial, lists paged by `registeredAt`
//! (DESIGN §6), and counts that never scan a table.

use wm_storage::{
    Db, StorageError,
    query::{self, Bind, Conditions},
    with_pool,
};

use super::rows::{GATEWAY_COLUMNS, GatewayRow, METER_COLUMNS, MeterRow};

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
pub trait Table: query::Row {
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
    let mut conditions = conditions(filter);
    let order = match (page.start, page.reverse) {
        (None, _) => "DESC",
        (Some(start), true) => {
            conditions.push(Bind::Int(start), |p| format!("registered_at < {p}"));
            "DESC"
        }
        (Some(start), false) => {
            conditions.push(Bind::Int(start), |p| format!("registered_at >= {p}"));
            "ASC"
        }
    };
    let where_clause = conditions.where_clause();
    let limit = conditions.bind(Bind::Int(page.max));
    let sql =
        format!("SELECT {} FROM {}{where_clause} ORDER BY registered_at {order} LIMIT {limit}", T::COLUMNS, T::TABLE);
    query::fetch_all(db, sql, conditions.into_binds()).await
}

/// How many devices `filter` covers: a maintained total, or an indexed
/// range.
pub async fn count<T: Table>(db: &Db, filter: Filter) -> Result<i64, StorageError> {
    if filter == Filter::All {
        let sql = "SELECT value FROM registry_counters WHERE name = $1";
        return Ok(with_pool!(db, pool => sqlx::query_scalar(sql).bind(T::COUNTER).fetch_one(pool).await)?);
    }
    let conditions = conditions(filter);
    let sql = format!("SELECT COUNT(*) FROM {}{}", T::TABLE, conditions.where_clause());
    query::fetch_count(db, sql, conditions.into_binds()).await
}

fn conditions(filter: Filter) -> Conditions {
    let mut conditions = Conditions::default();
    match filter {
        Filter::All => {}
        Filter::Lost { before } => conditions.push(Bind::Int(before), |p| format!("last_activity < {p}")),
        Filter::Down => conditions.push_fixed("device_status = 'Down'"),
        Filter::Critical => conditions.push_fixed("critical = TRUE"),
        Filter::Unhealthy { before } => conditions
            .push(Bind::Int(before), |p| format!("(last_activity < {p} OR device_status = 'Down' OR critical = TRUE)")),
    }
    conditions
}
