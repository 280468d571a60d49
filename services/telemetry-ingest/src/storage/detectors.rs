//! Where each meter's leak detectors stand (`domain::detect::State`), the
//! hourly sums they decide, and the meters whose open alarms wait on them.

use std::collections::{BTreeMap, HashMap};

use wm_storage::{
    Db, StorageError, Tx,
    bulk::{self, Rows},
    query::{self, Bind},
};

use crate::domain::{
    detect::{State, TYPES},
    rollup::Sum,
};

/// The detector state of each of `meters` that has one, locked for the
/// rest of the transaction.
pub async fn load(tx: &mut Tx, meters: &[&str]) -> Result<HashMap<String, State>, StorageError> {
    let ids = meters.iter().map(|m| Bind::from(*m)).collect();
    let lock = tx.lock_rows();
    let rows: Vec<(String, String)> =
        bulk::fetch_in_with(tx, "SELECT meter_id, state FROM detector_state", "meter_id", ids, lock).await?;
    rows.into_iter()
        .map(|(meter, json)| match serde_json::from_str(&json) {
            Ok(state) => Ok((meter, state)),
            Err(_) => Err(StorageError::Corrupt { field: "detector_state.state", value: json }),
        })
        .collect()
}

/// The first hour with readings of each of `meters` that has one.
pub async fn first_hours(tx: &mut Tx, meters: &[&str]) -> Result<Vec<(String, i64)>, StorageError> {
    if meters.is_empty() {
        return Ok(Vec::new());
    }
    let ids = meters.iter().map(|m| Bind::from(*m)).collect();
    let select = "SELECT meter_id, MIN(bucket) FROM meter_hourly";
    bulk::fetch_in_with(tx, select, "meter_id", ids, " GROUP BY meter_id").await
}

/// Saves the state of each meter.
pub async fn save(tx: &mut Tx, states: &[(&str, &State)]) -> Result<(), StorageError> {
    let mut rows = Rows::new(3);
    for (meter, state) in states {
        let Some(next_hour) = state.next_hour else { continue };
        let json = serde_json::to_string(state).unwrap_or_default();
        rows.push([(*meter).into(), Bind::Int(next_hour), json.into()]);
    }
    if rows.is_empty() {
        return Ok(());
    }
    let tail = " ON CONFLICT (meter_id) DO UPDATE SET next_hour = excluded.next_hour, state = excluded.state";
    bulk::execute(tx, "INSERT INTO detector_state (meter_id, next_hour, state)", tail, rows).await?;
    Ok(())
}

/// The hourly sums of each of `meters` from `from_us` on.
pub async fn hours(
    tx: &mut Tx,
    meters: &[&str],
    from_us: i64,
) -> Result<HashMap<String, BTreeMap<i64, Sum>>, StorageError> {
    let ids = meters.iter().map(|m| Bind::from(*m)).collect();
    // An integer of ours, not input: safe to write into the statement.
    let tail = format!(" AND bucket >= {from_us}");
    let rows: Vec<(String, i64, i64, i64)> = bulk::fetch_in_with(
        tx,
        "SELECT meter_id, bucket, volume_ml, readings FROM meter_hourly",
        "meter_id",
        ids,
        &tail,
    )
    .await?;
    let mut out: HashMap<String, BTreeMap<i64, Sum>> = HashMap::new();
    for (meter, bucket, volume_ml, readings) in rows {
        out.entry(meter).or_default().insert(bucket, Sum { volume_ml, readings });
    }
    Ok(out)
}

/// Up to `limit` meters with an open alarm of a detector's type whose
/// hours are undecided since before `before_us`: silent meters whose
/// alarms wait for their hours to be decided.
pub async fn silent(db: &Db, before_us: i64, limit: i64) -> Result<Vec<String>, StorageError> {
    let types = TYPES.iter().map(|t| format!("'{t}'")).collect::<Vec<_>>().join(", ");
    let sql = format!(
        "SELECT DISTINCT s.meter_id FROM detector_state s JOIN alarms a ON a.device_id = s.meter_id \
         WHERE s.next_hour < $1 AND a.status IN ('active', 'acknowledged') AND a.alarm_type IN ({types}) \
         ORDER BY s.meter_id LIMIT $2"
    );
    let rows: Vec<(String,)> = query::fetch_all(db, sql, vec![Bind::Int(before_us), Bind::Int(limit)]).await?;
    Ok(rows.into_iter().map(|(meter,)| meter).collect())
}
