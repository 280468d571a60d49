//! The meter index at an instant, for billing: every meter (or those asked
//! for) with everything it counted before then, streamed row by row.
//!
//! A meter's index at `T` is its total (`meter_totals`) less what it
//! counted from `T` on: the daily buckets from the next local day, and the
//! hourly buckets from `T`'s hour to that day. A billing date is recent, so
//! what is subtracted is a few buckets per meter, however long the history.

use wm_storage::{
    Db, StorageError,
    query::{self, Bind, Conditions},
};

/// Where the index stops: the readings measured before `hour_us`, taken
/// from the hourly buckets up to `day_us` (the next day) and the daily
/// buckets from there. With `hour_us == day_us`, whole days only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexAt {
    pub hour_us: i64,
    pub day_us: i64,
}

/// Which meters: those whose serial or name holds `text` (any case), and
/// only `meters` when any are named.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexFilter {
    pub text: Option<String>,
    pub meters: Vec<String>,
}

/// One meter's line: id, serial, name, index (mL).
pub type IndexRow = (String, String, String, i64);

/// Sends every meter's index at `at` to `sink`, by serial number, as the
/// database sends them (then the error, if it failed part way).
pub async fn meter_index(
    db: &Db,
    at: IndexAt,
    filter: &IndexFilter,
    sink: &tokio::sync::mpsc::Sender<Result<IndexRow, StorageError>>,
) {
    let mut c = Conditions::default();
    let (day, hour) = (c.bind(Bind::Int(at.day_us)), c.bind(Bind::Int(at.hour_us)));
    if let Some(text) = &filter.text {
        let like = format!("%{}%", query::like_literal(&text.to_lowercase()));
        c.push(like.into(), |p| {
            format!("(lower(m.serial_number) LIKE {p} ESCAPE '\\' OR lower(m.device_name) LIKE {p} ESCAPE '\\')")
        });
    }
    if !filter.meters.is_empty() {
        let placeholders: Vec<String> = filter.meters.iter().map(|m| c.bind(m.into())).collect();
        c.push_fixed(format!("m.id IN ({})", placeholders.join(", ")));
    }
    let sql = format!(
        "SELECT m.id, m.serial_number, m.device_name, COALESCE(t.volume_ml, 0) - COALESCE(a.after_ml, 0) \
         FROM ingest_meters m \
         LEFT JOIN meter_totals t ON t.meter_id = m.id \
         LEFT JOIN (SELECT meter_id, CAST(SUM(volume_ml) AS BIGINT) AS after_ml FROM ( \
             SELECT meter_id, volume_ml FROM meter_daily WHERE bucket >= {day} \
             UNION ALL SELECT meter_id, volume_ml FROM meter_hourly WHERE bucket >= {hour} AND bucket < {day} \
           ) x GROUP BY meter_id) a ON a.meter_id = m.id{} \
         ORDER BY m.serial_number",
        c.where_clause()
    );
    query::send_rows(db, sql, c.into_binds(), sink).await;
}
