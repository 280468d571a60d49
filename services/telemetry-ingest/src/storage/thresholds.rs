//! The thresholds operators set per meter (`domain::thresholds`), as their
//! events left them: a meter back on the defaults has no row.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use wm_proto::{Envelope, Payload};
use wm_storage::{
    Db, StorageError, Tx, bulk, execute,
    query::{self, Bind},
    with_tx,
};

use crate::domain::thresholds::{self, Overrides};

type Row = (String, Option<i64>, Option<i64>, Option<i64>, Option<i64>);

const SELECT: &str =
    "SELECT meter_id, continuous_flow_hours, night_flow_ml, burst_ml, stuck_days FROM meter_thresholds";

fn overrides((_, hours, night, burst, days): Row) -> Overrides {
    Overrides {
        continuous_flow_hours: hours.and_then(|h| u32::try_from(h).ok()),
        night_flow_ml: night,
        burst_ml: burst,
        stuck_days: days.and_then(|d| u32::try_from(d).ok()),
    }
}

/// The overrides of each of `meters` that has some.
pub async fn of(tx: &mut Tx, meters: &[&str]) -> Result<HashMap<String, Overrides>, StorageError> {
    let ids = meters.iter().map(|m| Bind::from(*m)).collect();
    let rows: Vec<Row> = bulk::fetch_in(tx, SELECT, "meter_id", ids).await?;
    Ok(rows.into_iter().map(|row| (row.0.clone(), overrides(row))).collect())
}

/// Who last set the meter's thresholds, and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Set {
    pub overrides: Overrides,
    pub by: String,
    pub at: DateTime<Utc>,
}

const GET: &str = "SELECT meter_id, continuous_flow_hours, night_flow_ml, burst_ml, stuck_days, updated_by, updated_at \
                   FROM meter_thresholds WHERE meter_id = $1";

type Full = (String, Option<i64>, Option<i64>, Option<i64>, Option<i64>, String, i64);

fn set((id, hours, night, burst, days, by, at): Full) -> Set {
    Set {
        overrides: overrides((id, hours, night, burst, days)),
        by,
        at: DateTime::from_timestamp_micros(at).unwrap_or_default(),
    }
}

/// The meter's overrides, if any, in `tx` (to change them).
pub async fn get(tx: &mut Tx, meter_id: &str) -> Result<Option<Set>, StorageError> {
    let row: Option<Full> = with_tx!(tx, conn => sqlx::query_as(GET).bind(meter_id).fetch_optional(&mut **conn).await)?;
    Ok(row.map(set))
}

/// The meter's overrides, if any.
pub async fn read(db: &Db, meter_id: &str) -> Result<Option<Set>, StorageError> {
    let row: Option<Full> = query::fetch_optional(db, GET.to_owned(), vec![meter_id.into()]).await?;
    Ok(row.map(set))
}

/// Applies a `MeterThresholdsSet`: the meter's row, or none when it is back
/// on the defaults.
pub async fn persist(tx: &mut Tx, envelope: &Envelope) -> Result<(), StorageError> {
    let (Some(Payload::MeterThresholdsSet(event)), Some(at)) = (&envelope.payload, envelope.occurred_at_utc()) else {
        return Ok(());
    };
    let set = thresholds::apply(event);
    if set.is_empty() {
        execute!(tx, "DELETE FROM meter_thresholds WHERE meter_id = $1", &event.meter_id)?;
        return Ok(());
    }
    let sql = "INSERT INTO meter_thresholds \
               (meter_id, continuous_flow_hours, night_flow_ml, burst_ml, stuck_days, updated_by, updated_at) \
               VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (meter_id) DO UPDATE SET \
               continuous_flow_hours = excluded.continuous_flow_hours, night_flow_ml = excluded.night_flow_ml, \
               burst_ml = excluded.burst_ml, stuck_days = excluded.stuck_days, \
               updated_by = excluded.updated_by, updated_at = excluded.updated_at";
    execute!(
        tx,
        sql,
        &event.meter_id,
        set.continuous_flow_hours.map(i64::from),
        set.night_flow_ml,
        set.burst_ml,
        set.stuck_days.map(i64::from),
        &envelope.actor,
        at.timestamp_micros()
    )?;
    Ok(())
}
