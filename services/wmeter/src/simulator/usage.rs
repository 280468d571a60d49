//! How much water a simulated meter uses: a household's day (water in the
//! morning and the evening, none at night), or what a scenario makes of it
//! (`--scenario leak|burst|stuck`), so that the leak detectors have
//! something to find (docs/analytics.md).

use chrono::{DateTime, DurationRound, TimeDelta, Timelike, Utc};

/// What goes wrong on a scenario's meter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Scenario {
    /// 15 L an hour more, day and night: `continuous-flow` after a day,
    /// `night-flow` after a night.
    Leak,
    /// 1,500 L an hour: `burst`.
    Burst,
    /// Heard, but counting nothing: `stuck-meter` after a week.
    Stuck,
}

/// Litres an hour a household uses at each hour of the day (UTC).
const HOUSEHOLD: [f64; 24] = [
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 8.0, 45.0, 30.0, 6.0, 4.0, 4.0, 10.0, 6.0, 3.0, 3.0, 4.0, 10.0, 25.0, 35.0, 30.0,
    12.0, 6.0, 0.0,
];

/// Litres an hour the meter uses at `hour` of the day; a household's use
/// is scaled by `jitter`.
fn litres_per_hour(scenario: Option<Scenario>, hour: u32, jitter: f64) -> f64 {
    let household = HOUSEHOLD[hour as usize % 24] * jitter;
    match scenario {
        None => household,
        Some(Scenario::Leak) => household + 15.0,
        Some(Scenario::Burst) => 1_500.0,
        Some(Scenario::Stuck) => 0.0,
    }
}

/// The millilitres used from `from` to `to`, hour by hour.
pub fn used_ml(scenario: Option<Scenario>, from: DateTime<Utc>, to: DateTime<Utc>, jitter: f64) -> u64 {
    let mut litres = 0.0;
    let mut at = from;
    while at < to {
        let hour_end = at.duration_trunc(TimeDelta::hours(1)).unwrap_or(at) + TimeDelta::hours(1);
        let end = hour_end.min(to);
        let hours = (end - at).num_milliseconds() as f64 / 3_600_000.0;
        litres += litres_per_hour(scenario, at.hour(), jitter) * hours;
        at = end;
    }
    (litres * 1000.0).round() as u64
}

/// What a scenario's meter measured before the run, as a gateway uploads
/// it when it comes back: (when, millilitres since the previous reading),
/// oldest first, all before `now`. Enough for its detector to decide.
pub fn backlog(scenario: Scenario, now: DateTime<Utc>) -> Vec<(DateTime<Utc>, u64)> {
    let (every, count) = match scenario {
        Scenario::Leak => (TimeDelta::hours(1), 30),
        Scenario::Burst => (TimeDelta::hours(1), 4),
        Scenario::Stuck => (TimeDelta::hours(6), 4 * 9),
    };
    let last = now.duration_trunc(TimeDelta::hours(1)).unwrap_or(now) - TimeDelta::minutes(30);
    (0..count)
        .rev()
        .map(|k| {
            let at = last - every * k;
            (at, used_ml(Some(scenario), at - every, at, 1.0))
        })
        .collect()
}

/// A backlog reading's message id: the same for the same meter and time,
/// so a backlog sent again is taken once; far below the live ids (µs).
pub fn backlog_id(at: DateTime<Utc>, meter: usize) -> u64 {
    u64::try_from(at.timestamp() / 60).unwrap_or(0) * 100_000 + (meter % 100_000) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(rfc3339: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
    }

    #[test]
    fn a_household_uses_water_by_day_and_none_at_night() {
        let night = used_ml(None, at("2026-11-22T01:00:00Z"), at("2026-11-22T05:00:00Z"), 1.0);
        let morning = used_ml(None, at("2026-11-22T07:00:00Z"), at("2026-11-22T08:30:00Z"), 1.0);
        assert_eq!((night, morning), (0, 60_000));
        let day = used_ml(None, at("2026-11-22T00:00:00Z"), at("2026-11-23T00:00:00Z"), 1.0);
        assert_eq!(day, 241_000, "about a quarter of a cubic metre a day");
    }

    #[test]
    fn scenarios_change_what_is_used() {
        let night = |s| used_ml(Some(s), at("2026-11-22T02:00:00Z"), at("2026-11-22T03:00:00Z"), 1.0);
        assert_eq!((night(Scenario::Leak), night(Scenario::Burst), night(Scenario::Stuck)), (15_000, 1_500_000, 0));
    }

    #[test]
    fn a_backlog_ends_before_now_and_spans_what_its_detector_needs() {
        let now = at("2026-11-24T10:17:00Z");
        let leak = backlog(Scenario::Leak, now);
        assert_eq!((leak.len(), leak.last().unwrap().0), (30, at("2026-11-24T09:30:00Z")));
        assert!(leak.iter().all(|(_, ml)| *ml >= 15_000), "flow in every hour");
        let stuck = backlog(Scenario::Stuck, now);
        assert!(stuck.first().unwrap().0 <= now - TimeDelta::days(7) && stuck.iter().all(|(_, ml)| *ml == 0));
        assert_ne!(backlog_id(leak[0].0, 3), backlog_id(leak[1].0, 3));
        assert!(backlog_id(now, 99_999) < 1_000_000_000_000_000, "below the live ids");
    }
}
