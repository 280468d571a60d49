//! Failed-login throttling: a sliding one-minute window per client IP and
//! per username, in this process's memory.

use std::{
    collections::{HashMap, VecDeque},
    net::IpAddr,
    sync::Mutex,
    time::{Duration, Instant},
};

const WINDOW: Duration = Duration::from_secs(60);
/// Keys tracked at most; past this, the oldest windows are dropped first.
const MAX_KEYS: usize = 100_000;

#[derive(Debug)]
pub struct LoginLimiter {
    per_ip: u32,
    per_user: u32,
    failures: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl LoginLimiter {
    pub fn new(per_ip: u32, per_user: u32) -> Self {
        Self { per_ip, per_user, failures: Mutex::default() }
    }

    /// `Err(seconds to wait)` when either window is full.
    pub fn check(&self, ip: Option<IpAddr>, username: &str, now: Instant) -> Result<(), u64> {
        let mut failures = self.failures.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut wait = 0;
        for (key, limit) in keys(ip, username).into_iter().zip([self.per_ip, self.per_user]) {
            let Some(key) = key else { continue };
            if let Some(times) = failures.get_mut(&key) {
                prune(times, now);
                if times.len() >= limit as usize
                    && let Some(oldest) = times.front()
                {
                    wait = wait.max((WINDOW - now.duration_since(*oldest)).as_secs().max(1));
                }
            }
        }
        if wait > 0 { Err(wait) } else { Ok(()) }
    }

    pub fn record_failure(&self, ip: Option<IpAddr>, username: &str, now: Instant) {
        let mut failures = self.failures.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if failures.len() >= MAX_KEYS {
            failures.retain(|_, times| {
                prune(times, now);
                !times.is_empty()
            });
        }
        if failures.len() >= MAX_KEYS {
            drop_oldest(&mut failures);
        }
        for key in keys(ip, username).into_iter().flatten() {
            failures.entry(key).or_default().push_back(now);
        }
    }
}

/// Keeps the most recently failing tenth below [`MAX_KEYS`]: a flood from
/// ever new addresses and usernames within one window costs bounded memory,
/// at the price of forgetting its oldest failures.
fn drop_oldest(failures: &mut HashMap<String, VecDeque<Instant>>) {
    let mut latest: Vec<Instant> = failures.values().filter_map(|times| times.back().copied()).collect();
    let cut = latest.len().saturating_sub(MAX_KEYS / 10 * 9);
    if cut == 0 {
        return;
    }
    let (_, threshold, _) = latest.select_nth_unstable(cut - 1);
    let threshold = *threshold;
    failures.retain(|_, times| times.back().is_some_and(|last| *last > threshold));
}

fn keys(ip: Option<IpAddr>, username: &str) -> [Option<String>; 2] {
    [ip.map(|ip| format!("ip:{ip}")), Some(format!("user:{}", username.to_lowercase()))]
}

fn prune(times: &mut VecDeque<Instant>, now: Instant) {
    while times.front().is_some_and(|t| now.duration_since(*t) >= WINDOW) {
        times.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: Option<IpAddr> = Some(IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 1)));
    const B: Option<IpAddr> = Some(IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 2)));

    #[test]
    fn the_eleventh_failure_from_one_ip_waits_but_other_ips_do_not() {
        let limiter = LoginLimiter::new(10, 50);
        let start = Instant::now();
        for i in 0..10 {
            assert_eq!(limiter.check(A, "ann", start), Ok(()), "attempt {i}");
            limiter.record_failure(A, "ann", start);
        }
        let wait = limiter.check(A, "ann", start + Duration::from_secs(15)).unwrap_err();
        assert_eq!(wait, 45);
        assert_eq!(limiter.check(B, "ann", start), Ok(()), "the real user from elsewhere");
        assert_eq!(limiter.check(A, "ann", start + WINDOW), Ok(()), "the window slides");
    }

    #[test]
    fn a_flood_of_new_names_keeps_memory_bounded_and_the_newest_failures() {
        let limiter = LoginLimiter::new(10, 1);
        let start = Instant::now();
        let flood = MAX_KEYS * 3;
        for i in 0..flood {
            let at = start + Duration::from_micros(i as u64);
            limiter.record_failure(None, &format!("guess{i}"), at);
        }
        let tracked = limiter.failures.lock().unwrap().len();
        assert!(tracked <= MAX_KEYS, "{tracked} keys");
        let end = start + Duration::from_micros(flood as u64);
        assert!(limiter.check(None, &format!("guess{}", flood - 1), end).is_err(), "the newest are still throttled");
    }

    #[test]
    fn many_ips_guessing_one_user_are_throttled_together() {
        let limiter = LoginLimiter::new(10, 3);
        let now = Instant::now();
        for ip in [A, B, None] {
            limiter.record_failure(ip, "Ann", now);
        }
        assert!(limiter.check(B, "ann", now).is_err());
    }
}
