//! Identifiers unique across every device of both kinds: `serialNumber`,
//! `imei`, `phoneNumber`, `bleAddress` and `macAddress`, each stored in its
//! canonical form. The table's primary key is the guarantee; the checks
//! here only make the error nicer.

use std::collections::HashMap;

use wm_storage::{
    Backend, Db, StorageError, Tx, bulk, execute,
    query::{Bind, fetch_all},
    with_pool, with_tx,
};

use crate::domain::{gateway, meter};

/// Pairs looked up in one statement by [`owners`]: 400 values bound.
const PAIRS_PER_STATEMENT: usize = 200;

/// `(field, canonical value)` pairs of one device.
pub type Identifiers = Vec<(&'static str, String)>;

/// Whether `value` is taken for `field`.
pub async fn exists(db: &Db, field: &str, value: &str) -> Result<bool, StorageError> {
    let sql = "SELECT COUNT(*) FROM device_identifiers WHERE field = $1 AND value = $2";
    let n: i64 = with_pool!(db, pool => sqlx::query_scalar(sql).bind(field).bind(value).fetch_one(pool).await)?;
    Ok(n > 0)
}

/// The devices holding any of `wanted`, each pair found through the
/// primary key: what a search for a whole identifier is.
pub async fn holders(db: &Db, wanted: &Identifiers) -> Result<Vec<String>, StorageError> {
    let mut devices: Vec<String> = owners(db, wanted).await?.into_values().collect();
    devices.sort();
    devices.dedup();
    Ok(devices)
}

/// The fields of `wanted` whose values another device holds.
pub async fn taken(tx: &mut Tx, device_id: &str, wanted: &Identifiers) -> Result<Vec<&'static str>, StorageError> {
    let sql = "SELECT device_id FROM device_identifiers WHERE field = $1 AND value = $2";
    let mut out = Vec::new();
    for (field, value) in wanted {
        let owner: Option<String> = with_tx!(tx, conn =>
            sqlx::query_scalar(sql).bind(*field).bind(value).fetch_optional(&mut **conn).await)?;
        if owner.is_some_and(|owner| owner != device_id) {
            out.push(*field);
        }
    }
    Ok(out)
}

/// The devices holding any of `wanted` (pairs of any number of devices),
/// by pair: a statement for [`PAIRS_PER_STATEMENT`] pairs, where [`taken`]
/// is one a pair (an import's check and apply, docs/devices-csv.md
/// "Speed").
pub async fn owners(
    db: &Db,
    wanted: &[(&'static str, String)],
) -> Result<HashMap<(String, String), String>, StorageError> {
    let mut out = HashMap::new();
    for chunk in wanted.chunks(PAIRS_PER_STATEMENT) {
        let binds =
            chunk.iter().flat_map(|(field, value)| [Bind::Text((*field).to_owned()), Bind::Text(value.clone())]);
        let found: Vec<(String, String, String)> =
            fetch_all(db, owners_statement(db.backend(), chunk.len()), binds.collect()).await?;
        out.extend(found.into_iter().map(|(field, value, device)| ((field, value), device)));
    }
    Ok(out)
}

/// The statement [`owners`] runs for `pairs` pairs, bound field then value:
/// an `OR` of pairs, each a search of the primary key on both databases.
/// (SQLite scans the whole table for `(field, value) IN (VALUES …)`, and
/// finds each `$n` of 400 by a linear search of their names.)
pub fn owners_statement(backend: Backend, pairs: usize) -> String {
    let p = |n| bulk::placeholder(backend, n);
    let conditions: Vec<String> =
        (1..=pairs).map(|i| format!("(field = {} AND value = {})", p(2 * i - 1), p(2 * i))).collect();
    format!("SELECT field, value, device_id FROM device_identifiers WHERE {}", conditions.join(" OR "))
}

/// Moves `device_id`'s identifiers from `before` to `after`: released ones
/// are deleted, new ones claimed. A claim another device holds fails with
/// [`StorageError::Taken`], and the transaction must be dropped.
pub async fn replace(
    tx: &mut Tx,
    device_id: &str,
    before: &Option<Identifiers>,
    after: &Option<Identifiers>,
) -> Result<(), StorageError> {
    let (before, after) = (before.as_deref().unwrap_or_default(), after.as_deref().unwrap_or_default());
    for (field, value) in before.iter().filter(|pair| !after.contains(pair)) {
        let sql = "DELETE FROM device_identifiers WHERE field = $1 AND value = $2 AND device_id = $3";
        execute!(tx, sql, *field, value, device_id)?;
    }
    for (field, value) in after.iter().filter(|pair| !before.contains(pair)) {
        let sql = "INSERT INTO device_identifiers (field, value, device_id) VALUES ($1, $2, $3)";
        execute!(tx, sql, *field, value, device_id).map_err(|e| e.taken_as(field, value))?;
    }
    Ok(())
}

/// A gateway's identifiers, canonical.
pub(super) fn gateway_identifiers(g: &gateway::Gateway) -> Vec<(&'static str, String)> {
    vec![
        ("serialNumber", g.serial_number.to_string()),
        ("imei", g.imei.to_string()),
        ("phoneNumber", g.phone_number.to_string()),
        ("bleAddress", g.ble_address.to_string()),
        ("macAddress", g.mac_address.to_string()),
    ]
}

/// A meter's identifiers, canonical.
pub(super) fn meter_identifiers(m: &meter::Meter) -> Vec<(&'static str, String)> {
    vec![("serialNumber", m.serial_number.to_string()), ("bleAddress", m.ble_address.to_string())]
}
