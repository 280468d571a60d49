//! Water intelligence: the alarms w-meter derives from a meter's hourly
//! consumption, that no gateway sends (DESIGN §11, docs/analytics.md).
//!
//! - `continuous-flow` (a probable leak): consumption in every hour of a
//!   window, 24 hours by default;
//! - `night-flow`: the lowest hourly volume between 02:00 and 05:00 local
//!   time above a threshold;
//! - `burst`: an hour's volume above a rate;
//! - `stuck-meter`: no consumption for days in a row while the meter is
//!   still heard.
//!
//! A meter's hours are decided in order, each once, and folded into its
//! [`State`]; every finding is timed by the hours that made it, never by
//! when they were decided. So the same hourly sums give the same findings
//! (and the same alarm ids) whatever the order the readings arrived in, how
//! often they were delivered, and when the hours were decided.

use std::collections::BTreeMap;

use chrono::{DateTime, Timelike, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use wm_domain::iso_micros;

use super::rollup::{HOUR_US, Sum, day_start};

pub const CONTINUOUS_FLOW: &str = "continuous-flow";
pub const NIGHT_FLOW: &str = "night-flow";
pub const BURST: &str = "burst";
pub const STUCK_METER: &str = "stuck-meter";
/// Every alarm type a detector raises.
pub const TYPES: [&str; 4] = [CONTINUOUS_FLOW, NIGHT_FLOW, BURST, STUCK_METER];

/// The local hours the night window starts at: 02:00 to 05:00.
const NIGHT: std::ops::Range<u32> = 2..5;
/// The most hours decided in one go; a meter silent for longer has its
/// runs broken at once instead of folding every silent hour.
const MAX_HOURS: i64 = 400 * 24;

/// When each detector fires, for one meter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Thresholds {
    /// Hours in a row with consumption that make a continuous flow.
    pub continuous_flow_hours: u32,
    /// A night whose lowest hour is above this many millilitres is a night flow.
    pub night_flow_ml: i64,
    /// An hour above this many millilitres is a burst.
    pub burst_ml: i64,
    /// Days in a row without consumption, the meter heard, that make it stuck.
    pub stuck_days: u32,
}

/// What a decided hour showed.
#[derive(Clone, Debug, PartialEq)]
pub enum Finding {
    /// The condition of `alarm_type` began; `at_us` is the end of the
    /// hour, night or day that made it, and `evidence` the window and the
    /// figures (a JSON object, the alarm's details).
    Raise { alarm_type: &'static str, at_us: i64, evidence: Value },
    /// The condition of `alarm_type` is over, as of `at_us`.
    Clear { alarm_type: &'static str, at_us: i64 },
}

/// A run of hours with consumption.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlowRun {
    pub since: i64,
    pub hours: u32,
    pub volume_ml: i64,
    pub min_ml: i64,
    /// Whether this run raised its alarm already.
    pub alarmed: bool,
}

/// This night's window so far, and whether the last nights were flowing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Night {
    pub since: Option<i64>,
    pub min_ml: Option<i64>,
    pub alarmed: bool,
}

/// The local day being decided.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Day {
    pub start: Option<i64>,
    pub volume_ml: i64,
    pub readings: i64,
}

/// A run of days without consumption, begun on a day the meter was heard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QuietRun {
    pub since: i64,
    pub days: u32,
    pub readings: i64,
    pub alarmed: bool,
}

/// Where a meter's detectors stand after its decided hours.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct State {
    /// The first hour not decided yet; `None` until one is.
    pub next_hour: Option<i64>,
    pub flow: Option<FlowRun>,
    /// The first hour of the burst going on.
    pub burst_since: Option<i64>,
    pub night: Night,
    pub day: Day,
    pub quiet: Option<QuietRun>,
}

impl State {
    /// Decides the meter's hours from where it stopped (or from `first_us`
    /// for a meter never decided) up to `until_us`, exclusive: `sums` holds
    /// the hours with readings, keyed by start; the others had none.
    pub fn advance(
        &mut self,
        first_us: i64,
        until_us: i64,
        sums: &BTreeMap<i64, Sum>,
        thresholds: &Thresholds,
        tz: Tz,
    ) -> Vec<Finding> {
        let mut findings = Vec::new();
        let mut hour = self.next_hour.unwrap_or(first_us - first_us.rem_euclid(HOUR_US));
        if until_us - hour > MAX_HOURS * HOUR_US {
            hour = until_us - MAX_HOURS * HOUR_US;
            findings.extend(self.silence(hour));
        }
        while hour + HOUR_US <= until_us {
            let sum = sums.get(&hour).copied().unwrap_or_default();
            findings.extend(self.decide(hour, sum, thresholds, tz));
            hour += HOUR_US;
        }
        findings
    }

    /// The hours before `at_us` went undecided for too long: the runs of
    /// hours end; the day starts afresh.
    fn silence(&mut self, at_us: i64) -> Vec<Finding> {
        let mut findings = Vec::new();
        if self.flow.take().is_some_and(|run| run.alarmed) {
            findings.push(Finding::Clear { alarm_type: CONTINUOUS_FLOW, at_us });
        }
        if self.burst_since.take().is_some() {
            findings.push(Finding::Clear { alarm_type: BURST, at_us });
        }
        self.night = Night { alarmed: self.night.alarmed, ..Night::default() };
        self.day = Day::default();
        findings
    }

    /// Decides the hour starting at `hour`, which summed `sum`.
    fn decide(&mut self, hour: i64, sum: Sum, t: &Thresholds, tz: Tz) -> Vec<Finding> {
        let end = hour + HOUR_US;
        let mut findings = Vec::new();
        findings.extend(self.flow(hour, sum.volume_ml, t));
        findings.extend(self.burst(hour, sum.volume_ml, t));
        findings.extend(self.night(hour, sum.volume_ml, t, tz));
        let day = day_start(hour, tz);
        if self.day.start != Some(day) {
            self.day = Day { start: Some(day), ..Day::default() };
        }
        self.day.volume_ml = self.day.volume_ml.saturating_add(sum.volume_ml);
        self.day.readings += sum.readings;
        if day_start(end, tz) != day {
            findings.extend(self.close_day(end, t));
        }
        self.next_hour = Some(end);
        findings
    }

    fn flow(&mut self, hour: i64, volume_ml: i64, t: &Thresholds) -> Option<Finding> {
        let end = hour + HOUR_US;
        if volume_ml <= 0 {
            let ended = self.flow.take()?;
            return ended.alarmed.then_some(Finding::Clear { alarm_type: CONTINUOUS_FLOW, at_us: end });
        }
        let run =
            self.flow.get_or_insert(FlowRun { since: hour, hours: 0, volume_ml: 0, min_ml: volume_ml, alarmed: false });
        run.hours += 1;
        run.volume_ml = run.volume_ml.saturating_add(volume_ml);
        run.min_ml = run.min_ml.min(volume_ml);
        if run.alarmed || run.hours < t.continuous_flow_hours {
            return None;
        }
        run.alarmed = true;
        let evidence = json!({
            "detector": CONTINUOUS_FLOW,
            "from": iso_micros(run.since),
            "to": iso_micros(end),
            "hours": run.hours,
            "volumeMl": run.volume_ml,
            "minHourlyMl": run.min_ml,
            "thresholdHours": t.continuous_flow_hours,
        });
        Some(Finding::Raise { alarm_type: CONTINUOUS_FLOW, at_us: end, evidence })
    }

    fn burst(&mut self, hour: i64, volume_ml: i64, t: &Thresholds) -> Option<Finding> {
        let end = hour + HOUR_US;
        if volume_ml <= t.burst_ml {
            self.burst_since.take()?;
            return Some(Finding::Clear { alarm_type: BURST, at_us: end });
        }
        if self.burst_since.is_some() {
            return None;
        }
        self.burst_since = Some(hour);
        let evidence = json!({
            "detector": BURST,
            "from": iso_micros(hour),
            "to": iso_micros(end),
            "volumeMl": volume_ml,
            "thresholdMl": t.burst_ml,
        });
        Some(Finding::Raise { alarm_type: BURST, at_us: end, evidence })
    }

    /// Adds the hour to the night window when it is in it, and decides the
    /// night after its last hour.
    fn night(&mut self, hour: i64, volume_ml: i64, t: &Thresholds, tz: Tz) -> Option<Finding> {
        let end = hour + HOUR_US;
        let in_night = |at: i64| {
            DateTime::<Utc>::from_timestamp_micros(at).is_some_and(|at| NIGHT.contains(&at.with_timezone(&tz).hour()))
        };
        // A night is decided whole: one joined half-way (the meter's first
        // hours) is skipped.
        if !in_night(hour) || (self.night.since.is_none() && in_night(hour - HOUR_US)) {
            return None;
        }
        self.night.since.get_or_insert(hour);
        self.night.min_ml = Some(self.night.min_ml.map_or(volume_ml, |min| min.min(volume_ml)));
        if in_night(end) {
            return None;
        }
        let (since, min_ml) = (self.night.since.take()?, self.night.min_ml.take()?);
        if min_ml <= t.night_flow_ml {
            let was = std::mem::replace(&mut self.night.alarmed, false);
            return was.then_some(Finding::Clear { alarm_type: NIGHT_FLOW, at_us: end });
        }
        if std::mem::replace(&mut self.night.alarmed, true) {
            return None;
        }
        let evidence = json!({
            "detector": NIGHT_FLOW,
            "from": iso_micros(since),
            "to": iso_micros(end),
            "minHourlyMl": min_ml,
            "thresholdMl": t.night_flow_ml,
        });
        Some(Finding::Raise { alarm_type: NIGHT_FLOW, at_us: end, evidence })
    }

    /// Decides the local day that ends at `end`.
    fn close_day(&mut self, end: i64, t: &Thresholds) -> Option<Finding> {
        let day = std::mem::take(&mut self.day);
        if day.volume_ml > 0 {
            let ended = self.quiet.take()?;
            return ended.alarmed.then_some(Finding::Clear { alarm_type: STUCK_METER, at_us: end });
        }
        let start = day.start?;
        let run = match &mut self.quiet {
            Some(run) => {
                run.days += 1;
                run.readings += day.readings;
                run
            }
            None if day.readings > 0 => {
                self.quiet.insert(QuietRun { since: start, days: 1, readings: day.readings, alarmed: false })
            }
            None => return None,
        };
        if run.alarmed || run.days < t.stuck_days || day.readings == 0 {
            return None;
        }
        run.alarmed = true;
        let evidence = json!({
            "detector": STUCK_METER,
            "from": iso_micros(run.since),
            "to": iso_micros(end),
            "days": run.days,
            "readings": run.readings,
            "thresholdDays": t.stuck_days,
        });
        Some(Finding::Raise { alarm_type: STUCK_METER, at_us: end, evidence })
    }
}

#[cfg(test)]
#[path = "detect_tests.rs"]
mod tests;
