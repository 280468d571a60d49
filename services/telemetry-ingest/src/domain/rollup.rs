//! Consumption rollups: readings summed per meter per hour and per day, per
//! gateway per day, over the network per day, and per meter for ever (its
//! index). An hour is a UTC hour; a day is a local day of the network's time
//! zone (`analytics.time_zone`), kept as the UTC instant of its local
//! midnight. Sums commute, so the same readings give the same rollups in any
//! order; a reading is counted once (storage claims its event id).

use std::collections::BTreeMap;

use chrono::{DateTime, Datelike, LocalResult, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;

pub const HOUR_US: i64 = 3_600_000_000;

/// One consumption record, as the rollups count it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    pub event_id: String,
    pub meter_id: String,
    pub gateway_id: String,
    pub ml: i64,
    /// When the meter measured it, µs since the epoch.
    pub at_us: i64,
}

/// A bucket's volume and how many readings made it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sum {
    pub volume_ml: i64,
    pub readings: i64,
}

impl Sum {
    fn add(&mut self, ml: i64) {
        self.volume_ml = self.volume_ml.saturating_add(ml);
        self.readings += 1;
    }

    /// Adds another bucket's sum to this one.
    pub fn absorb(&mut self, other: Sum) {
        self.volume_ml = self.volume_ml.saturating_add(other.volume_ml);
        self.readings += other.readings;
    }
}

/// What a batch of readings adds to each bucket, each bucket once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Increments {
    pub meter_hour: BTreeMap<(String, i64), Sum>,
    pub meter_day: BTreeMap<(String, i64), Sum>,
    pub gateway_day: BTreeMap<(String, i64), Sum>,
    pub network_day: BTreeMap<i64, Sum>,
    /// Everything each meter counted.
    pub meter_total: BTreeMap<String, Sum>,
}

/// The start of the UTC hour holding `at_us`.
pub fn hour_start(at_us: i64) -> i64 {
    at_us.div_euclid(HOUR_US) * HOUR_US
}

/// The start, as µs since the epoch, of the local day of `tz` that holds
/// `at_us`. Where a midnight does not exist (a DST gap), the day starts at
/// its first instant.
pub fn day_start(at_us: i64, tz: Tz) -> i64 {
    let Some(at) = DateTime::<Utc>::from_timestamp_micros(at_us) else { return hour_start(at_us) };
    let date = at.with_timezone(&tz).date_naive();
    local_start(date, tz).unwrap_or_else(|| hour_start(at_us))
}

/// The first instant of `date` in `tz`, µs since the epoch.
pub fn local_start(date: chrono::NaiveDate, tz: Tz) -> Option<i64> {
    let mut time = NaiveTime::MIN;
    // A DST gap is at most a few hours: the day starts at its first valid hour.
    for _ in 0..24 {
        match tz.from_local_datetime(&date.and_time(time)) {
            LocalResult::Single(at) | LocalResult::Ambiguous(at, _) => return Some(at.timestamp_micros()),
            LocalResult::None => time = time.overflowing_add_signed(chrono::TimeDelta::hours(1)).0,
        }
    }
    None
}

/// What `readings` add to the rollups.
pub fn increments(readings: &[Reading], tz: Tz) -> Increments {
    let mut out = Increments::default();
    for r in readings {
        let day = day_start(r.at_us, tz);
        out.meter_hour.entry((r.meter_id.clone(), hour_start(r.at_us))).or_default().add(r.ml);
        out.meter_day.entry((r.meter_id.clone(), day)).or_default().add(r.ml);
        out.gateway_day.entry((r.gateway_id.clone(), day)).or_default().add(r.ml);
        out.network_day.entry(day).or_default().add(r.ml);
        out.meter_total.entry(r.meter_id.clone()).or_default().add(r.ml);
    }
    out
}

/// How a series is bucketed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bucket {
    Hour,
    Day,
    Month,
}

/// The start (µs) of the `bucket` holding `at_us`: a UTC hour, or a local
/// day or month of `tz`.
pub fn bucket_of(bucket: Bucket, at_us: i64, tz: Tz) -> i64 {
    match bucket {
        Bucket::Hour => hour_start(at_us),
        Bucket::Day => day_start(at_us, tz),
        Bucket::Month => {
            let Some(at) = DateTime::<Utc>::from_timestamp_micros(at_us) else { return hour_start(at_us) };
            let date = at.with_timezone(&tz).date_naive().with_day(1).unwrap_or_default();
            local_start(date, tz).unwrap_or_else(|| hour_start(at_us))
        }
    }
}

/// The start of the bucket after the one starting at `start_us`.
pub fn next_bucket(bucket: Bucket, start_us: i64, tz: Tz) -> i64 {
    let date = || DateTime::<Utc>::from_timestamp_micros(start_us).map(|at| at.with_timezone(&tz).date_naive());
    let next = match bucket {
        Bucket::Hour => return start_us + HOUR_US,
        Bucket::Day => date().and_then(|d| d.succ_opt()),
        Bucket::Month => date().and_then(|d| d.checked_add_months(chrono::Months::new(1))),
    };
    next.and_then(|d| local_start(d, tz)).filter(|next| *next > start_us).unwrap_or(start_us + HOUR_US)
}

/// The starts of the buckets that hold any of `[from_us, to_us)`, in order.
pub fn bucket_starts(bucket: Bucket, from_us: i64, to_us: i64, tz: Tz) -> Vec<i64> {
    let mut starts = Vec::new();
    let mut start = bucket_of(bucket, from_us, tz);
    while start < to_us {
        starts.push(start);
        start = next_bucket(bucket, start, tz);
    }
    starts
}

#[cfg(test)]
#[path = "rollup_tests.rs"]
mod tests;
