//! A token bucket per gateway (`telemetry.gateway_rate_per_sec`,
//! `telemetry.gateway_rate_burst`): one flooding gateway's excess is
//! dead-lettered as `rate-limited` instead of starving the rest. Time is the
//! service's clock, so tests are exact.

use std::{collections::HashMap, sync::Mutex};

use chrono::{DateTime, Utc};

use crate::TelemetrySettings;

/// Buckets kept at most; past it, full ones (gateways within their rate)
/// are forgotten, which loses nothing: a new bucket starts full.
const MAX_BUCKETS: usize = 100_000;

#[derive(Debug)]
pub struct RateLimiter {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<String, Bucket>>,
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    at: DateTime<Utc>,
}

impl RateLimiter {
    pub fn new(settings: &TelemetrySettings) -> Self {
        Self {
            per_second: f64::from(settings.gateway_rate_per_sec),
            burst: f64::from(settings.gateway_rate_burst),
            buckets: Mutex::default(),
        }
    }

    /// The rate it allows, a second (0: no limit).
    pub fn per_second(&self) -> f64 {
        self.per_second
    }

    /// Whether one more uplink of the gateway `serial` at `now` is within
    /// its rate (and takes its token).
    pub fn admit(&self, serial: &str, now: DateTime<Utc>) -> bool {
        if self.per_second <= 0.0 {
            return true;
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() >= MAX_BUCKETS && !buckets.contains_key(serial) {
            buckets.retain(|_, b| self.refilled(*b, now) < self.burst);
        }
        let bucket = buckets.entry(serial.to_owned()).or_insert(Bucket { tokens: self.burst, at: now });
        let tokens = self.refilled(*bucket, now);
        let admitted = tokens >= 1.0;
        *bucket = Bucket { tokens: if admitted { tokens - 1.0 } else { tokens }, at: now.max(bucket.at) };
        admitted
    }

    fn refilled(&self, bucket: Bucket, now: DateTime<Utc>) -> f64 {
        let elapsed = (now - bucket.at).num_microseconds().unwrap_or(i64::MAX).max(0) as f64 / 1e6;
        (bucket.tokens + elapsed * self.per_second).min(self.burst)
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeDelta;

    use super::*;

    fn limiter(per_sec: u32, burst: u32) -> RateLimiter {
        let settings = TelemetrySettings {
            gateway_rate_per_sec: per_sec,
            gateway_rate_burst: burst,
            ..TelemetrySettings::default()
        };
        RateLimiter::new(&settings)
    }

    #[test]
    fn a_gateway_gets_its_burst_then_its_rate() {
        let (limiter, now) = (limiter(2, 3), Utc::now());
        let admitted: Vec<bool> = (0..5).map(|_| limiter.admit("A", now)).collect();
        assert_eq!(admitted, [true, true, true, false, false]);
        assert!(limiter.admit("B", now), "another gateway has its own bucket");
        let later = now + TimeDelta::milliseconds(500);
        assert_eq!((limiter.admit("A", later), limiter.admit("A", later)), (true, false), "one token in half a second");
        let much_later = now + TimeDelta::hours(1);
        assert_eq!((0..4).filter(|_| limiter.admit("A", much_later)).count(), 3, "refilled to the burst, not beyond");
    }

    #[test]
    fn zero_is_no_limit_and_the_clock_going_back_takes_nothing() {
        let open = limiter(0, 0);
        assert!((0..10_000).all(|_| open.admit("A", Utc::now())));
        let (limiter, now) = (limiter(1, 1), Utc::now());
        assert!(limiter.admit("A", now));
        assert!(!limiter.admit("A", now - TimeDelta::seconds(10)));
    }
}
