//! What this process's relays published from the outbox tables, by
//! source, read at each scrape (`wmeter_outbox_relayed_total`,
//! `wmeter_outbox_wait_seconds_total`): the two rates' ratio is how long an
//! event waited in the table before the log had it. Beside them, how long
//! the oldest event still there has waited (`wmeter_outbox_oldest_age_seconds`),
//! from the staging time a relay last read of it: the one figure that
//! climbs while nothing is published at all. And the staged rows no build
//! could read, set aside as dead letters (`wmeter_outbox_dead_letters_total`),
//! which an operator puts back by hand. In the embedded log's own
//! database nothing waits there, and the series stay at zero. Each relay's
//! source starts at zero when the relay is made, so a rate has a series
//! from the first scrape.

use std::{
    collections::BTreeMap,
    sync::{Mutex, PoisonError, atomic::AtomicU64},
    time::Duration,
};

use prometheus_client::{
    collector::Collector,
    encoding::{DescriptorEncoder, EncodeMetric},
    metrics::{counter::Counter, family::Family, gauge::Gauge},
    registry::Registry,
};

/// One source's events relayed so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Relayed {
    /// Events published from the table.
    events: u64,
    /// The time they waited in it, from staging to publishing, in all.
    waited: Duration,
    /// When the oldest event still waiting was staged (ms since the
    /// epoch), as last read; `None` when nothing waited.
    oldest_ms: Option<i64>,
    /// Staged rows no build could read, published as dead letters instead.
    dead_lettered: u64,
}

impl Relayed {
    /// How long the oldest event still waiting has waited at `now_ms`.
    fn oldest_age(&self, now_ms: i64) -> Duration {
        Duration::from_millis(self.oldest_ms.map_or(0, |at| waited_ms(at, now_ms)))
    }
}

/// Milliseconds from `staged_at_ms` to `now_ms`: none for an event staged
/// by a host whose clock is ahead of this one's.
fn waited_ms(staged_at_ms: i64, now_ms: i64) -> u64 {
    u64::try_from(now_ms - staged_at_ms).unwrap_or(0)
}

static RELAYED: Mutex<BTreeMap<&'static str, Relayed>> = Mutex::new(BTreeMap::new());

/// Starts `source`'s counts at zero, if it has none yet.
pub(super) fn start(source: &'static str) {
    RELAYED.lock().unwrap_or_else(PoisonError::into_inner).entry(source).or_default();
}

/// Counts a round of `source`'s events, staged at `staged_at_ms` each and
/// published at `now_ms` (ms since the epoch).
pub(super) fn count(source: &'static str, staged_at_ms: impl Iterator<Item = i64>, now_ms: i64) {
    let (mut events, mut waited) = (0_u64, 0_u64);
    for at in staged_at_ms {
        events += 1;
        waited += waited_ms(at, now_ms);
    }
    if events == 0 {
        return;
    }
    let mut relayed = RELAYED.lock().unwrap_or_else(PoisonError::into_inner);
    let source = relayed.entry(source).or_default();
    source.events += events;
    source.waited += Duration::from_millis(waited);
}

/// Counts `rows` of `source` set aside as dead letters.
pub(super) fn dead_lettered(source: &'static str, rows: usize) {
    if rows > 0 {
        let rows = u64::try_from(rows).unwrap_or(u64::MAX);
        RELAYED.lock().unwrap_or_else(PoisonError::into_inner).entry(source).or_default().dead_lettered += rows;
    }
}

/// Records when the oldest event waiting for `source` was staged (ms since
/// the epoch), or that none waits.
pub(super) fn oldest(source: &'static str, staged_at_ms: Option<i64>) {
    RELAYED.lock().unwrap_or_else(PoisonError::into_inner).entry(source).or_default().oldest_ms = staged_at_ms;
}

/// Every source's events relayed so far in this process.
fn by_source() -> Vec<(&'static str, Relayed)> {
    RELAYED.lock().unwrap_or_else(PoisonError::into_inner).iter().map(|(source, r)| (*source, *r)).collect()
}

/// The relays' two counters and the oldest event's age, by `source`.
#[derive(Debug)]
pub struct RelayMetrics;

impl RelayMetrics {
    pub const RELAYED: &'static str = "wmeter_outbox_relayed";
    pub const WAITED: &'static str = "wmeter_outbox_wait_seconds";
    pub const OLDEST: &'static str = "wmeter_outbox_oldest_age_seconds";
    pub const DEAD_LETTERS: &'static str = "wmeter_outbox_dead_letters";

    pub fn register(registry: &mut Registry) {
        registry.register_collector(Box::new(Self));
    }
}

impl Collector for RelayMetrics {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let relayed: Family<Vec<(&'static str, &'static str)>, Counter> = Family::default();
        let waited: Family<Vec<(&'static str, &'static str)>, Counter<f64>> = Family::default();
        let oldest: Family<Vec<(&'static str, &'static str)>, Gauge<f64, AtomicU64>> = Family::default();
        let dead: Family<Vec<(&'static str, &'static str)>, Counter> = Family::default();
        let now_ms = chrono::Utc::now().timestamp_millis();
        for (source, r) in by_source() {
            let labels = vec![("source", source)];
            relayed.get_or_create(&labels).inc_by(r.events);
            waited.get_or_create(&labels).inc_by(r.waited.as_secs_f64());
            oldest.get_or_create(&labels).set(r.oldest_age(now_ms).as_secs_f64());
            dead.get_or_create(&labels).inc_by(r.dead_lettered);
        }
        let help = "Events published from the outbox tables";
        relayed.encode(encoder.encode_descriptor(Self::RELAYED, help, None, relayed.metric_type())?)?;
        let help = "Seconds the events published from the outbox tables waited there, in all";
        waited.encode(encoder.encode_descriptor(Self::WAITED, help, None, waited.metric_type())?)?;
        let help = "Seconds the oldest event still in the outbox tables has waited there, 0 when none waits";
        oldest.encode(encoder.encode_descriptor(Self::OLDEST, help, None, oldest.metric_type())?)?;
        let help = "Staged rows no build could read, published whole as dead letters instead of their events";
        dead.encode(encoder.encode_descriptor(Self::DEAD_LETTERS, help, None, dead.metric_type())?)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `source`'s counts as a scrape reads them.
    fn of(source: &str) -> Relayed {
        by_source().into_iter().find(|(s, _)| *s == source).unwrap().1
    }

    #[test]
    fn a_round_adds_its_events_and_their_waits_and_a_clock_ahead_adds_no_wait() {
        start("relayed-test");
        let before = of("relayed-test");
        start("relayed-test");
        assert_eq!(of("relayed-test"), before, "started once");
        count("relayed-test", [1_000, 1_500, 2_600].into_iter(), 2_000);
        count("relayed-test", std::iter::empty(), 2_000);
        let after = of("relayed-test");
        assert_eq!(after.events - before.events, 3);
        assert_eq!(after.waited - before.waited, Duration::from_millis(1_000 + 500));
    }

    #[test]
    fn the_oldest_event_s_age_is_counted_from_its_staging_and_is_zero_when_none_waits() {
        oldest("oldest-test", Some(1_000));
        assert_eq!(of("oldest-test").oldest_age(61_000), Duration::from_secs(60));
        assert_eq!(of("oldest-test").oldest_age(500), Duration::ZERO, "a clock behind the stager's counts no wait");
        oldest("oldest-test", None);
        assert_eq!(of("oldest-test").oldest_age(61_000), Duration::ZERO);
    }
}
