//! A time range from a query's `from` and `to`, checked once for every
//! series, chart and export: ISO 8601 dates or date-times, `from` before
//! `to`, no longer than the answer allows.

use crate::{domain::rollup::HOUR_US, error::IngestError};

pub const DAY_US: i64 = 24 * HOUR_US;

pub fn invalid(field: &'static str, message: impl Into<String>) -> IngestError {
    IngestError::Invalid { field, message: message.into() }
}

/// A `from` or `to`, µs; a parameter with a format takes no empty value.
pub fn time(field: &'static str, value: Option<&str>) -> Result<Option<i64>, IngestError> {
    value
        .map(str::trim)
        .map(|v| wm_http::params::start(v).map(|at| at.timestamp_micros()).map_err(|message| invalid(field, message)))
        .transpose()
}

/// `[from, to)` in µs: `to` by default `now`, `from` by default
/// `default_days` before `to`; at most `longest_days` long, `what` says of
/// what when it is longer.
pub fn range(
    (from, to): (Option<&str>, Option<&str>),
    now_us: i64,
    default_days: i64,
    (longest_days, what): (i64, &str),
) -> Result<(i64, i64), IngestError> {
    let to = time("to", to)?.unwrap_or(now_us);
    let from = time("from", from)?.unwrap_or(to - default_days * DAY_US);
    if from >= to {
        return Err(invalid("from", "must be before to"));
    }
    if to - from > longest_days * DAY_US {
        return Err(invalid("to", format!("the range is too long for {what}: at most {longest_days} days")));
    }
    Ok((from, to))
}
