//! The telemetry lists, newest first, paged by time: `start` (exclusive)
//! is the oldest timestamp the client already has. Rows name their devices
//! (`gatewayName`, `meterName`) beside the spec's ids.

use serde::Serialize;
use utoipa::ToSchema;
use wm_domain::iso_micros;
use wm_storage::{
    Db, StorageError,
    query::{self, Bind, Conditions},
};

/// Which rows of a list, and how many.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Slice {
    /// Equality filters: `(column, value)`.
    pub equal: Vec<(&'static str, String)>,
    /// Only rows older than this (µs), exclusive.
    pub before: Option<i64>,
    pub max: i64,
}

/// Whether a list's rows carry the names of their gateway and meter
/// (`gateway_name`, `meter_name`), joined by id onto the list's table (`a`):
/// each name is one lookup by key in its own table, in the same statement as
/// the page (docs/performance.md §3).
#[derive(Clone, Copy)]
enum Named {
    Yes,
    No,
}

/// The names of a row's gateway and meter, and their joins (see [`Named`]).
const NAMES: &str = ", 'GTW-' || g.serial_number AS gateway_name, m.device_name AS meter_name";
const NAME_JOINS: &str =
    " LEFT JOIN ingest_gateways g ON g.id = a.gateway_id LEFT JOIN ingest_meters m ON m.id = a.meter_id";

/// The newest rows of `table` (as `a`) in `slice`.
async fn newest<T: query::Row>(
    db: &Db,
    table: &str,
    columns: &str,
    named: Named,
    slice: &Slice,
) -> Result<Vec<T>, StorageError> {
    let mut conditions = Conditions::default();
    for (column, value) in &slice.equal {
        conditions.push(Bind::Text(value.clone()), |p| format!("a.{column} = {p}"));
    }
    if let Some(before) = slice.before {
        conditions.push(Bind::Int(before), |p| format!("a.occurred_at < {p}"));
    }
    let where_clause = conditions.where_clause();
    let limit = conditions.limit(slice.max);
    let (names, joins) = match named {
        Named::Yes => (NAMES, NAME_JOINS),
        Named::No => ("", ""),
    };
    let sql = format!(
        "SELECT {columns}{names} FROM {table} a{joins}{where_clause} ORDER BY a.occurred_at DESC LIMIT {limit}"
    );
    query::fetch_all(db, sql, conditions.into_binds()).await
}

struct ActivityRow {
    event_id: String,
    gateway_id: String,
    meter_id: Option<String>,
    mqtt_topic: String,
    action: String,
    occurred_at: i64,
    gateway_name: Option<String>,
    meter_name: Option<String>,
}
wm_storage::from_row!(ActivityRow {
    event_id,
    gateway_id,
    meter_id,
    mqtt_topic,
    action,
    occurred_at,
    gateway_name,
    meter_name
});

/// A gateway activity (spec §3).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Activity {
    #[serde(rename = "_id")]
    pub id: String,
    pub gateway_id: String,
    /// The gateway's name (`GTW-…`), unless it was deleted.
    pub gateway_name: Option<String>,
    pub meter_id: Option<String>,
    /// The meter's name, unless it was deleted.
    pub meter_name: Option<String>,
    #[schema(example = "wmeter/v1/gw/AB12CD34EF/reading")]
    pub mqtt_topic: String,
    #[schema(example = "reading 42 L")]
    pub action: String,
    pub timestamp: String,
}

/// The columns of an activity row, from `gateway_activity` as `a`.
const ACTIVITY: &str = "a.event_id, a.gateway_id, a.meter_id, a.mqtt_topic, a.action, a.occurred_at";

/// The gateway activity of `slice`, newest first.
pub async fn gateway_activity(db: &Db, slice: &Slice) -> Result<Vec<Activity>, StorageError> {
    let rows = if slice.equal.iter().any(|(column, _)| *column == "meter_id") {
        meter_activity(db, slice).await?
    } else {
        newest(db, "gateway_activity", ACTIVITY, Named::Yes, slice).await?
    };
    Ok(activities(rows))
}

/// One meter's activity (`slice` filters by `meter_id`, and perhaps by
/// `gateway_id`), newest first: the newest of its activity rows that the
/// index by meter holds, and of those its newest readings lead to
/// (telemetry migration 13: a reading's activity row is not in that index,
/// so that a reading costs ingest one index by meter, not two). Each half
/// reads at most a page along its index, in time order, whatever the
/// meter's history: the second takes the newest readings, linked or not,
/// and an unlinked one leads nowhere, its activity row being in the first
/// half's index at the same time. So a page of `max` readings spans at
/// least the newest `max` activity rows, and no older linked row belongs
/// on the page. The readings' limit is written into the statement: with
/// [`Conditions::limit`]'s unknown one, PostgreSQL's generic plan expected
/// a tenth of a meter's readings and hashed every activity row to join
/// them, not a page (a statement per page size, then, of which the
/// dashboard asks a few). Rows of one time come newest event first, so
/// that the page is the same whichever half holds a row.
async fn meter_activity(db: &Db, slice: &Slice) -> Result<Vec<ActivityRow>, StorageError> {
    let mut binds = Conditions::default();
    let (mut unlinked, mut readings) = (vec!["NOT a.via_reading".to_owned()], Vec::new());
    for (column, value) in &slice.equal {
        let p = binds.bind(Bind::Text(value.clone()));
        unlinked.push(format!("a.{column} = {p}"));
        readings.push(format!("r.{column} = {p}"));
    }
    if let Some(before) = slice.before {
        let p = binds.bind(Bind::Int(before));
        unlinked.push(format!("a.occurred_at < {p}"));
        readings.push(format!("r.occurred_at < {p}"));
    }
    let (limit, max) = (binds.limit(slice.max), slice.max);
    let (unlinked, readings) = (unlinked.join(" AND "), readings.join(" AND "));
    let sql = format!(
        "SELECT {ACTIVITY}{NAMES} FROM (\
         SELECT * FROM (SELECT {ACTIVITY} FROM gateway_activity a WHERE {unlinked} \
         ORDER BY a.occurred_at DESC LIMIT {limit}) unlinked \
         UNION ALL \
         SELECT {ACTIVITY} FROM (SELECT r.activity_id, r.occurred_at FROM readings r WHERE {readings} \
         ORDER BY r.occurred_at DESC LIMIT {max}) r \
         JOIN gateway_activity a ON a.event_id = r.activity_id AND a.occurred_at = r.occurred_at\
         ) a{NAME_JOINS} ORDER BY a.occurred_at DESC, a.event_id DESC LIMIT {limit}"
    );
    query::fetch_all(db, sql, binds.into_binds()).await
}

fn activities(rows: Vec<ActivityRow>) -> Vec<Activity> {
    rows.into_iter()
        .map(|r| Activity {
            id: r.event_id,
            gateway_id: r.gateway_id,
            gateway_name: r.gateway_name,
            meter_id: r.meter_id,
            meter_name: r.meter_name,
            mqtt_topic: r.mqtt_topic,
            action: r.action,
            timestamp: iso_micros(r.occurred_at),
        })
        .collect()
}

struct BleRow {
    gateway_id: String,
    meter_id: String,
    rssi: i32,
    occurred_at: i64,
    gateway_name: Option<String>,
    meter_name: Option<String>,
}
wm_storage::from_row!(BleRow { gateway_id, meter_id, rssi, occurred_at, gateway_name, meter_name });

/// A BLE activity: a gateway heard a meter (spec §3).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Ble {
    pub gateway_id: String,
    /// The gateway's name (`GTW-…`), unless it was deleted.
    pub gateway_name: Option<String>,
    pub meter_id: String,
    /// The meter's name, unless it was deleted.
    pub meter_name: Option<String>,
    #[schema(example = -73)]
    pub rssi: i32,
    pub timestamp: String,
}

pub async fn ble_activity(db: &Db, slice: &Slice) -> Result<Vec<Ble>, StorageError> {
    let columns = "a.gateway_id, a.meter_id, a.rssi, a.occurred_at";
    let rows: Vec<BleRow> = newest(db, "ble_activity", columns, Named::Yes, slice).await?;
    Ok(rows
        .into_iter()
        .map(|r| Ble {
            gateway_id: r.gateway_id,
            gateway_name: r.gateway_name,
            meter_id: r.meter_id,
            meter_name: r.meter_name,
            rssi: r.rssi,
            timestamp: iso_micros(r.occurred_at),
        })
        .collect())
}

struct DiscoveryRow {
    device_name: String,
    ble_address: String,
    occurred_at: i64,
}
wm_storage::from_row!(DiscoveryRow { device_name, ble_address, occurred_at });

/// A peripheral a gateway discovered (spec §3).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Discovery {
    pub device_name: String,
    pub ble_address: String,
    pub timestamp: String,
}

pub async fn discoveries(db: &Db, slice: &Slice) -> Result<Vec<Discovery>, StorageError> {
    let rows: Vec<DiscoveryRow> =
        newest(db, "discoveries", "device_name, ble_address, occurred_at", Named::No, slice).await?;
    Ok(rows
        .into_iter()
        .map(|r| Discovery {
            device_name: r.device_name,
            ble_address: r.ble_address,
            timestamp: iso_micros(r.occurred_at),
        })
        .collect())
}

struct ReadingRow {
    event_id: String,
    record_ml: i64,
    occurred_at: i64,
}
wm_storage::from_row!(ReadingRow { event_id, record_ml, occurred_at });

/// A consumption record (spec §3), in litres.
#[derive(Debug, Serialize, ToSchema)]
pub struct Consumption {
    #[serde(rename = "_id")]
    pub id: String,
    #[schema(example = 42.0)]
    pub record: f64,
    pub timestamp: String,
}

pub async fn consumption(db: &Db, slice: &Slice) -> Result<Vec<Consumption>, StorageError> {
    let rows: Vec<ReadingRow> = newest(db, "readings", "event_id, record_ml, occurred_at", Named::No, slice).await?;
    #[expect(clippy::cast_precision_loss, reason = "a record below 2^53 ml is exact")]
    let litres = |ml: i64| ml as f64 / 1000.0;
    Ok(rows
        .into_iter()
        .map(|r| Consumption { id: r.event_id, record: litres(r.record_ml), timestamp: iso_micros(r.occurred_at) })
        .collect())
}

struct AlertRow {
    alert_type: String,
    raised: bool,
    received_at: i64,
    updated_at: i64,
}
wm_storage::from_row!(AlertRow { alert_type, raised, received_at, updated_at });

/// A critical alert (spec §3).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CriticalAlert {
    #[serde(rename = "type")]
    #[schema(example = "leak")]
    pub alert_type: String,
    /// `raised` or `cleared`.
    pub status: &'static str,
    pub received_at: String,
    pub updated_at: String,
}

/// A meter's alerts, raised first, then the most recently updated.
pub async fn alerts(db: &Db, meter_id: &str, only_raised: bool) -> Result<Vec<CriticalAlert>, StorageError> {
    let mut conditions = Conditions::default();
    conditions.push(Bind::Text(meter_id.to_owned()), |p| format!("meter_id = {p}"));
    if only_raised {
        conditions.push_fixed("raised = TRUE");
    }
    let sql = format!(
        "SELECT alert_type, raised, received_at, updated_at FROM alerts{} ORDER BY raised DESC, updated_at DESC",
        conditions.where_clause()
    );
    let rows: Vec<AlertRow> = query::fetch_all(db, sql, conditions.into_binds()).await?;
    Ok(rows
        .into_iter()
        .map(|r| CriticalAlert {
            alert_type: r.alert_type,
            status: if r.raised { "raised" } else { "cleared" },
            received_at: iso_micros(r.received_at),
            updated_at: iso_micros(r.updated_at),
        })
        .collect())
}
