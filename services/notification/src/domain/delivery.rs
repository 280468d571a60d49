//! A delivery: one message of a rule, holding one alarm or a group of them,
//! tried until it is delivered or given up (docs/integrations.md). Pure:
//! when to try again, and when to stop.

use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};

/// Where a delivery stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Waiting for its grouping window to close, or for its next attempt.
    Pending,
    Delivered,
    /// Given up: every attempt failed for the configured time.
    Abandoned,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Delivered => "delivered",
            Status::Abandoned => "abandoned",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [Status::Pending, Status::Delivered, Status::Abandoned].into_iter().find(|s| s.as_str() == text)
    }
}

/// How failed attempts are retried: the first retry after `first`, each
/// next one after twice as long, never more than `max` apart, and none
/// once `give_up_after` has passed since the first attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    pub first: Duration,
    pub max: Duration,
    pub give_up_after: Duration,
}

/// What follows a failed attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    RetryAt(DateTime<Utc>),
    GiveUp,
}

impl Backoff {
    /// After the `attempts`-th attempt failed at `now`, the first having
    /// been made at `first_attempt`.
    pub fn after_failure(&self, attempts: u32, first_attempt: DateTime<Utc>, now: DateTime<Utc>) -> Next {
        let factor = 2u32.saturating_pow(attempts.saturating_sub(1));
        let delay = self.first.saturating_mul(factor).min(self.max);
        let give_up_at = first_attempt + TimeDelta::from_std(self.give_up_after).unwrap_or(TimeDelta::MAX);
        let at = now + TimeDelta::from_std(delay).unwrap_or(TimeDelta::MAX);
        if now >= give_up_at || at > give_up_at { Next::GiveUp } else { Next::RetryAt(at) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BACKOFF: Backoff = Backoff {
        first: Duration::from_secs(10),
        max: Duration::from_secs(60),
        give_up_after: Duration::from_secs(300),
    };

    #[test]
    fn given_failures_when_retried_then_the_delay_doubles_up_to_its_cap() {
        let start = Utc::now();
        let delays: Vec<i64> = (1..=5)
            .map(|n| match BACKOFF.after_failure(n, start, start) {
                Next::RetryAt(at) => (at - start).num_seconds(),
                Next::GiveUp => -1,
            })
            .collect();
        assert_eq!(delays, [10, 20, 40, 60, 60]);
    }

    #[test]
    fn given_the_time_is_spent_when_an_attempt_fails_then_the_delivery_is_given_up() {
        let start = Utc::now();
        assert_eq!(BACKOFF.after_failure(3, start, start + TimeDelta::seconds(300)), Next::GiveUp);
        assert_eq!(
            BACKOFF.after_failure(3, start, start + TimeDelta::seconds(270)),
            Next::GiveUp,
            "no retry past the end"
        );
        assert!(matches!(BACKOFF.after_failure(3, start, start + TimeDelta::seconds(200)), Next::RetryAt(_)));
        assert_eq!(Status::parse("abandoned"), Some(Status::Abandoned));
    }
}
