//! The time, injectable: services read a [`Clock`] they are given, so tests
//! can move time instead of waiting for it.

use std::{
    fmt::Debug,
    sync::{Mutex, PoisonError},
};

use chrono::{DateTime, Duration, SecondsFormat, Utc};

/// The instant `micros` (µs since the Unix epoch) as the API writes every
/// time: ISO 8601 in UTC with microseconds, `2026-11-22T09:32:00.000000Z`.
/// Exact, so a time a client sends back (a page's `start`) finds the same
/// row. chrono's RFC 3339 writer, not a `format` string, which chrono parses
/// again on every call (a third of the HTTP workers' time on a year of
/// daily points, docs/performance.md §3).
pub fn iso_micros(micros: i64) -> String {
    DateTime::from_timestamp_micros(micros).unwrap_or_default().to_rfc3339_opts(SecondsFormat::Micros, true)
}

/// Where "now" comes from.
pub trait Clock: Send + Sync + Debug {
    fn now(&self) -> DateTime<Utc>;
}

/// The system clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that stands still until it is set or advanced (tests).
#[derive(Debug)]
pub struct ManualClock(Mutex<DateTime<Utc>>);

impl ManualClock {
    pub fn new(at: DateTime<Utc>) -> Self {
        Self(Mutex::new(at))
    }

    pub fn set(&self, at: DateTime<Utc>) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = at;
    }

    pub fn advance(&self, by: Duration) {
        let mut now = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        *now += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_instant_is_written_to_the_microsecond_in_utc() {
        assert_eq!(iso_micros(1_795_858_320_000_000), "2026-11-28T09:32:00.000000Z");
        assert_eq!(iso_micros(1_795_858_320_123_456), "2026-11-28T09:32:00.123456Z");
        assert_eq!(iso_micros(0), "1970-01-01T00:00:00.000000Z");
        assert_eq!(iso_micros(-1), "1969-12-31T23:59:59.999999Z");
        assert_eq!(iso_micros(i64::MAX), "1970-01-01T00:00:00.000000Z", "out of chrono's range: the epoch");
        // The strftime pattern the services used before: the same text.
        for micros in [-62_135_596_800_000_000, -1_000_001, 1, 253_402_300_799_999_999, 253_402_300_800_000_000] {
            let before = DateTime::from_timestamp_micros(micros).unwrap().format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string();
            assert_eq!(iso_micros(micros), before, "{micros}");
        }
    }

    #[test]
    fn a_manual_clock_moves_only_when_told() {
        let start = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let clock = ManualClock::new(start);
        assert_eq!(clock.now(), start);
        clock.advance(Duration::hours(3));
        assert_eq!(clock.now(), start + Duration::hours(3));
        clock.set(start);
        assert_eq!(clock.now(), start);
    }
}
