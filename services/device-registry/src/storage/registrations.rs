//! Registrations written, many in a few statements, not several a device:
//! `wmeter seed`'s load into empty tables (`COPY` on PostgreSQL), an
//! import's chunk (docs/devices-csv.md "Speed"), and a single registration
//! through [`super::devices::persist`]. A device gets its row, its
//! identifiers, the clock raised to its time and the totals moved.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use wm_domain::DeviceKind;
use wm_proto::Payload;
use wm_storage::{
    StorageError, Tx,
    bulk::{self, Rows},
    query::Bind,
    with_tx,
};

use super::{
    from_micros,
    identifiers::{gateway_identifiers, meter_identifiers},
    lists::Table,
    micros,
    rows::{GatewayRow, MeterRow},
    search::{gateway_search_text, meter_search_text},
};
use crate::domain::{gateway, meter};

const GATEWAY_COLUMNS: [&str; 12] = [
    "id",
    "serial_number",
    "device_name",
    "imei",
    "phone_number",
    "ble_address",
    "mac_address",
    "longitude",
    "latitude",
    "registered_at",
    "search_text",
    "last_activity",
];
const METER_COLUMNS: [&str; 9] = [
    "id",
    "serial_number",
    "device_name",
    "ble_address",
    "longitude",
    "latitude",
    "registered_at",
    "search_text",
    "last_activity",
];
const IDENTIFIER_COLUMNS: [&str; 3] = ["field", "value", "device_id"];

/// Loads new registrations (`GatewayRegistered`, `MeterRegistered`; others
/// are ignored) into tables that hold none of their identifiers: `wmeter
/// seed`. One already taken fails the whole load.
pub async fn load(tx: &mut Tx, events: &[Payload]) -> Result<(), StorageError> {
    let rows = Batch::of(events)?;
    bulk::copy(tx, GatewayRow::TABLE, &GATEWAY_COLUMNS, rows.gateways).await?;
    bulk::copy(tx, MeterRow::TABLE, &METER_COLUMNS, rows.meters).await?;
    bulk::copy(tx, "device_identifiers", &IDENTIFIER_COLUMNS, rows.identifiers).await?;
    totals(tx, rows.newest, rows.counts).await
}

/// Registers new devices (`GatewayRegistered`, `MeterRegistered`; others
/// are ignored). An identifier another device holds fails it with
/// [`StorageError::Taken`] for the first such one, and the transaction must
/// be dropped: the caller checked them, and only a registration committed
/// since can have taken one.
pub async fn register(tx: &mut Tx, events: &[Payload]) -> Result<(), StorageError> {
    let rows = Batch::of(events)?;
    let head = format!("INSERT INTO device_identifiers ({})", IDENTIFIER_COLUMNS.join(", "));
    let claimed: Vec<(String, String)> =
        bulk::fetch(tx, &head, " ON CONFLICT DO NOTHING RETURNING field, value", rows.identifiers).await?;
    if claimed.len() < rows.pairs.len() {
        let claimed: std::collections::HashSet<(&str, &str)> =
            claimed.iter().map(|(field, value)| (field.as_str(), value.as_str())).collect();
        if let Some((field, value)) = rows.pairs.into_iter().find(|(f, v)| !claimed.contains(&(*f, v.as_str()))) {
            return Err(StorageError::Taken { field, value });
        }
    }
    for (table, columns, devices) in
        [(GatewayRow::TABLE, &GATEWAY_COLUMNS[..], rows.gateways), (MeterRow::TABLE, &METER_COLUMNS[..], rows.meters)]
    {
        bulk::execute(tx, &format!("INSERT INTO {table} ({})", columns.join(", ")), "", devices).await?;
    }
    totals(tx, rows.newest, rows.counts).await
}

/// The devices `ids` of `kind` as the audit trail shows them, by id (see
/// [`super::devices::audit_snapshot`]); one not found is left out.
pub async fn audit_snapshots(
    tx: &mut Tx,
    kind: DeviceKind,
    ids: &[String],
) -> Result<HashMap<String, String>, StorageError> {
    let ids: Vec<Bind> = ids.iter().map(Bind::from).collect();
    Ok(match kind {
        DeviceKind::Gateway => snapshots::<GatewayRow>(tx, ids, |r| (r.id.clone(), r.audit_json())).await?,
        DeviceKind::Meter => snapshots::<MeterRow>(tx, ids, |r| (r.id.clone(), r.audit_json())).await?,
    })
}

async fn snapshots<T: Table>(
    tx: &mut Tx,
    ids: Vec<Bind>,
    audit: impl Fn(&T) -> (String, serde_json::Value),
) -> Result<HashMap<String, String>, StorageError> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let select = format!("SELECT {} FROM {}", T::COLUMNS, T::TABLE);
    let rows: Vec<T> = bulk::fetch_in(tx, &select, "id", ids).await?;
    Ok(rows.iter().map(audit).map(|(id, json)| (id, json.to_string())).collect())
}

/// The clock raised to the newest registration of each kind, and the
/// totals moved by how many there were.
async fn totals(tx: &mut Tx, newest: [Option<DateTime<Utc>>; 2], counts: [i64; 2]) -> Result<(), StorageError> {
    let kinds = [(DeviceKind::Gateway, GatewayRow::COUNTER), (DeviceKind::Meter, MeterRow::COUNTER)];
    for (((kind, counter), at), n) in kinds.into_iter().zip(newest).zip(counts) {
        if let Some(at) = at {
            raise_clock(tx, kind, at).await?;
            count(tx, counter, n).await?;
        }
    }
    Ok(())
}

/// The `registeredAt` of the first of `n` new devices of `kind`, the others
/// following it a microsecond apart: `now`, or one microsecond after the
/// last one handed out if that is not later, as `n` registrations one
/// after the other would get. The counter row's lock serializes concurrent
/// registrations.
pub async fn next_registered_at(
    tx: &mut Tx,
    kind: DeviceKind,
    now: DateTime<Utc>,
    n: u32,
) -> Result<DateTime<Utc>, StorageError> {
    let sql = "UPDATE registry_clock \
               SET last_micros = CASE WHEN last_micros >= $1 THEN last_micros + $3 ELSE $1 + $3 - 1 END \
               WHERE kind = $2 RETURNING last_micros";
    let last: i64 = with_tx!(tx, conn => sqlx::query_scalar(sql)
        .bind(micros(now))
        .bind(kind_name(kind))
        .bind(i64::from(n.max(1)))
        .fetch_one(&mut **conn)
        .await)?;
    Ok(from_micros("registered_at", last - i64::from(n.max(1)) + 1)?)
}

/// Keeps the registration clock at or past `at`, so a rebuilt registry
/// goes on handing out later times.
pub(super) async fn raise_clock(tx: &mut Tx, kind: DeviceKind, at: DateTime<Utc>) -> Result<(), StorageError> {
    let sql = "UPDATE registry_clock SET last_micros = CASE WHEN last_micros < $1 THEN $1 ELSE last_micros END \
               WHERE kind = $2";
    with_tx!(tx, conn => sqlx::query(sql)
        .bind(micros(at))
        .bind(kind_name(kind))
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(())
}

fn kind_name(kind: DeviceKind) -> &'static str {
    match kind {
        DeviceKind::Gateway => "gateway",
        DeviceKind::Meter => "meter",
    }
}

/// Moves the maintained total of `name` by `by`.
pub(super) async fn count(tx: &mut Tx, name: &'static str, by: i64) -> Result<(), StorageError> {
    let sql = "UPDATE registry_counters SET value = value + $1 WHERE name = $2";
    with_tx!(tx, conn => sqlx::query(sql).bind(by).bind(name).execute(&mut **conn).await.map(|r| r.rows_affected()))?;
    Ok(())
}

/// The rows of a batch of registrations.
struct Batch {
    gateways: Rows,
    meters: Rows,
    identifiers: Rows,
    /// The identifiers' `(field, value)`, in the order of `identifiers`.
    pairs: Vec<(&'static str, String)>,
    /// The newest registration of each kind, gateways then meters.
    newest: [Option<DateTime<Utc>>; 2],
    counts: [i64; 2],
}

impl Batch {
    fn of(events: &[Payload]) -> Result<Batch, StorageError> {
        let mut batch = Batch {
            gateways: Rows::new(GATEWAY_COLUMNS.len()),
            meters: Rows::new(METER_COLUMNS.len()),
            identifiers: Rows::new(IDENTIFIER_COLUMNS.len()),
            pairs: Vec::new(),
            newest: [None, None],
            counts: [0, 0],
        };
        for event in events {
            match event {
                Payload::GatewayRegistered(e) => {
                    let Some(g) = gateway::apply(None, event)? else { continue };
                    let at = Bind::Int(micros(g.registered_at));
                    batch.gateways.push([
                        e.id.as_str().into(),
                        g.serial_number.as_str().into(),
                        (&g.device_name).into(),
                        g.imei.as_str().into(),
                        g.phone_number.as_str().into(),
                        g.ble_address.as_str().into(),
                        g.mac_address.as_str().into(),
                        g.gps.map(|p| p.longitude()).into(),
                        g.gps.map(|p| p.latitude()).into(),
                        at.clone(),
                        gateway_search_text(&g).into(),
                        at,
                    ]);
                    batch.claim(&e.id, gateway_identifiers(&g));
                    batch.counted(0, g.registered_at);
                }
                Payload::MeterRegistered(e) => {
                    let Some(m) = meter::apply(None, event)? else { continue };
                    let at = Bind::Int(micros(m.registered_at));
                    batch.meters.push([
                        e.id.as_str().into(),
                        m.serial_number.as_str().into(),
                        (&m.device_name).into(),
                        m.ble_address.as_str().into(),
                        m.gps.map(|p| p.longitude()).into(),
                        m.gps.map(|p| p.latitude()).into(),
                        at.clone(),
                        meter_search_text(&m).into(),
                        at,
                    ]);
                    batch.claim(&e.id, meter_identifiers(&m));
                    batch.counted(1, m.registered_at);
                }
                _ => {}
            }
        }
        Ok(batch)
    }

    fn claim(&mut self, device: &str, pairs: Vec<(&'static str, String)>) {
        for (field, value) in pairs {
            self.identifiers.push([field.into(), value.as_str().into(), device.into()]);
            self.pairs.push((field, value));
        }
    }

    fn counted(&mut self, kind: usize, at: DateTime<Utc>) {
        self.newest[kind] = self.newest[kind].max(Some(at));
        self.counts[kind] += 1;
    }
}
