//! At most one WARN a minute for each identity's refusals on the embedded
//! broker: a gateway that keeps trying what it may not do is counted in
//! `/metrics` every time (`wmeter_mqtt_refused_total`), but cannot flood the
//! log. Each line says how many refusals went unlogged since the last one.

use std::{
    collections::HashMap,
    sync::{Mutex, PoisonError},
    time::{Duration, Instant},
};

/// One line per identity per this long, at most.
const LOG_EVERY: Duration = Duration::from_secs(60);
/// Identities remembered at most: past this (usernames made up by the
/// thousand), the memory starts again, and each gets one line more.
const IDENTITIES_KEPT: usize = 10_000;

#[derive(Debug, Default)]
pub struct RefusalLog(Mutex<HashMap<String, (Instant, u64)>>);

impl RefusalLog {
    /// Whether a refusal of `identity` at `now` is logged: then, how many
    /// of its refusals were not since the last line.
    pub fn admit(&self, identity: &str, now: Instant) -> Option<u64> {
        // Plain numbers: a panic elsewhere cannot leave them half written.
        let mut seen = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((last, unlogged)) = seen.get_mut(identity) {
            if now.duration_since(*last) < LOG_EVERY {
                *unlogged += 1;
                return None;
            }
            let since = std::mem::take(unlogged);
            *last = now;
            return Some(since);
        }
        if seen.len() >= IDENTITIES_KEPT {
            seen.clear();
        }
        seen.insert(identity.to_owned(), (now, 0));
        Some(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_a_minute_for_each_identity_with_the_count_it_left_out() {
        let log = RefusalLog::default();
        let start = Instant::now();
        assert_eq!(log.admit("gateway:A", start), Some(0));
        assert_eq!(log.admit("gateway:A", start + Duration::from_secs(1)), None);
        assert_eq!(log.admit("gateway:A", start + Duration::from_secs(59)), None);
        assert_eq!(log.admit("gateway:B", start + Duration::from_secs(2)), Some(0), "each identity has its own");
        assert_eq!(log.admit("gateway:A", start + Duration::from_secs(61)), Some(2));
        assert_eq!(log.admit("gateway:A", start + Duration::from_secs(62)), None);
    }
}
