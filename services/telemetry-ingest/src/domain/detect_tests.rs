use std::collections::HashSet;

use proptest::prelude::*;

use super::*;
use crate::domain::rollup::{Reading, increments};

const PARIS: Tz = chrono_tz::Europe::Paris;
const DEFAULTS: Thresholds =
    Thresholds { continuous_flow_hours: 24, night_flow_ml: 5_000, burst_ml: 1_000_000, stuck_days: 7 };

fn us(rfc3339: &str) -> i64 {
    DateTime::parse_from_rfc3339(rfc3339).unwrap().timestamp_micros()
}

/// Midnight in Paris on 2026-11-22 (UTC+1).
fn midnight() -> i64 {
    us("2026-11-21T23:00:00Z")
}

/// Hourly sums: `volumes[i]` mL in hour `i` after `from`, one reading each.
fn hours(from: i64, volumes: &[i64]) -> BTreeMap<i64, Sum> {
    volumes.iter().enumerate().map(|(i, ml)| (from + i as i64 * HOUR_US, Sum { volume_ml: *ml, readings: 1 })).collect()
}

/// The findings of deciding `sums` from `from` up to `until`, at once.
fn decided(sums: &BTreeMap<i64, Sum>, from: i64, until: i64, t: &Thresholds) -> (State, Vec<Finding>) {
    let mut state = State::default();
    let findings = state.advance(from, until, sums, t, PARIS);
    (state, findings)
}

fn raised(findings: &[Finding]) -> Vec<(&'static str, i64)> {
    findings
        .iter()
        .filter_map(|f| match f {
            Finding::Raise { alarm_type, at_us, .. } => Some((*alarm_type, *at_us)),
            Finding::Clear { .. } => None,
        })
        .collect()
}

fn cleared(findings: &[Finding]) -> Vec<(&'static str, i64)> {
    findings
        .iter()
        .filter_map(|f| match f {
            Finding::Clear { alarm_type, at_us } => Some((*alarm_type, *at_us)),
            Finding::Raise { .. } => None,
        })
        .collect()
}

/// A household's day: water in the morning and the evening, none at night.
fn normal_day() -> Vec<i64> {
    let mut day = vec![0; 24];
    for (hour, ml) in [(7, 40_000), (8, 25_000), (12, 8_000), (19, 30_000), (20, 60_000), (22, 5_000)] {
        day[hour] = ml;
    }
    day
}

#[test]
fn given_normal_days_when_decided_then_nothing_is_raised() {
    let week: Vec<i64> = (0..7).flat_map(|_| normal_day()).collect();
    let (_, findings) = decided(&hours(midnight(), &week), midnight(), midnight() + 7 * 24 * HOUR_US, &DEFAULTS);
    assert_eq!(findings, Vec::new());
}

#[test]
fn given_a_leaks_24_flat_hours_when_decided_then_continuous_flow_is_raised_with_its_evidence() {
    let from = midnight();
    let (state, findings) = decided(&hours(from, &[3_000; 24]), from, from + 24 * HOUR_US, &DEFAULTS);
    assert_eq!(raised(&findings), vec![(CONTINUOUS_FLOW, from + 24 * HOUR_US)]);
    let Finding::Raise { evidence, .. } = &findings[0] else { unreachable!() };
    assert_eq!(evidence["detector"], CONTINUOUS_FLOW);
    assert_eq!(evidence["from"], "2026-11-21T23:00:00.000000Z");
    assert_eq!(evidence["to"], "2026-11-22T23:00:00.000000Z");
    assert_eq!((evidence["hours"].as_u64(), evidence["volumeMl"].as_i64()), (Some(24), Some(72_000)));
    assert_eq!((evidence["minHourlyMl"].as_i64(), evidence["thresholdHours"].as_u64()), (Some(3_000), Some(24)));
    assert_eq!(state.next_hour, Some(from + 24 * HOUR_US));
}

#[test]
fn given_23_hours_of_flow_when_decided_then_nothing_is_raised_yet() {
    let from = midnight();
    let (_, findings) = decided(&hours(from, &[3_000; 23]), from, from + 24 * HOUR_US, &DEFAULTS);
    assert_eq!(raised(&findings), Vec::new());
}

#[test]
fn given_a_raised_continuous_flow_when_it_flows_on_then_a_dry_hour_clears_it_once() {
    let from = midnight();
    let mut volumes = vec![3_000; 30];
    volumes.extend([0, 0, 500]);
    let (state, findings) = decided(&hours(from, &volumes), from, from + 33 * HOUR_US, &DEFAULTS);
    assert_eq!(raised(&findings), vec![(CONTINUOUS_FLOW, from + 24 * HOUR_US)]);
    assert_eq!(cleared(&findings), vec![(CONTINUOUS_FLOW, from + 31 * HOUR_US)]);
    assert_eq!(state.flow.map(|run| (run.since, run.hours)), Some((from + 32 * HOUR_US, 1)));
}

#[test]
fn given_a_shorter_window_for_the_meter_when_decided_then_it_is_raised_sooner() {
    let from = midnight();
    let six = Thresholds { continuous_flow_hours: 6, ..DEFAULTS };
    let (_, findings) = decided(&hours(from, &[3_000; 8]), from, from + 8 * HOUR_US, &six);
    assert_eq!(raised(&findings), vec![(CONTINUOUS_FLOW, from + 6 * HOUR_US)]);
}

#[test]
fn given_an_hour_above_the_burst_rate_when_decided_then_burst_is_raised_and_the_next_normal_hour_clears_it() {
    let from = midnight() + 10 * HOUR_US;
    let (_, findings) =
        decided(&hours(from, &[20_000, 1_500_000, 2_000_000, 30_000]), from, from + 4 * HOUR_US, &DEFAULTS);
    assert_eq!(raised(&findings), vec![(BURST, from + 2 * HOUR_US)]);
    assert_eq!(cleared(&findings), vec![(BURST, from + 4 * HOUR_US)]);
    let Finding::Raise { evidence, .. } = &findings[0] else { unreachable!() };
    assert_eq!((evidence["volumeMl"].as_i64(), evidence["thresholdMl"].as_i64()), (Some(1_500_000), Some(1_000_000)));
    assert_eq!(evidence["from"], "2026-11-22T10:00:00.000000Z");
}

#[test]
fn given_nights_that_never_run_dry_when_decided_then_night_flow_is_raised_at_five_local_and_a_dry_night_clears_it() {
    // Two days of a normal household plus 6 L an hour all night; then a
    // normal day.
    let mut volumes: Vec<i64> = Vec::new();
    for _ in 0..2 {
        volumes.extend(normal_day().iter().enumerate().map(|(h, ml)| if (2..5).contains(&h) { 6_000 } else { *ml }));
    }
    volumes.extend(normal_day());
    let from = midnight();
    let (_, findings) = decided(&hours(from, &volumes), from, from + 72 * HOUR_US, &DEFAULTS);
    // 05:00 in Paris is 04:00 UTC.
    assert_eq!(raised(&findings), vec![(NIGHT_FLOW, us("2026-11-22T04:00:00Z"))]);
    assert_eq!(cleared(&findings), vec![(NIGHT_FLOW, us("2026-11-24T04:00:00Z"))]);
    let Finding::Raise { evidence, .. } = &findings[0] else { unreachable!() };
    assert_eq!(evidence["from"], "2026-11-22T01:00:00.000000Z");
    assert_eq!((evidence["minHourlyMl"].as_i64(), evidence["thresholdMl"].as_i64()), (Some(6_000), Some(5_000)));
}

#[test]
fn given_a_night_at_the_threshold_when_decided_then_it_is_not_a_night_flow() {
    let mut day = normal_day();
    day[2..5].copy_from_slice(&[5_000, 9_000, 7_000]);
    let (_, findings) = decided(&hours(midnight(), &day), midnight(), midnight() + 24 * HOUR_US, &DEFAULTS);
    assert_eq!(raised(&findings), Vec::new());
}

#[test]
fn given_a_meter_heard_without_consumption_for_seven_days_when_decided_then_it_is_stuck_until_it_counts_again() {
    let from = midnight();
    let mut volumes = vec![0; 8 * 24];
    volumes.extend(normal_day());
    let (_, findings) = decided(&hours(from, &volumes), from, from + 9 * 24 * HOUR_US, &DEFAULTS);
    let seventh_midnight = us("2026-11-28T23:00:00Z");
    assert_eq!(raised(&findings), vec![(STUCK_METER, seventh_midnight)]);
    assert_eq!(cleared(&findings), vec![(STUCK_METER, us("2026-11-30T23:00:00Z"))]);
    let Finding::Raise { evidence, .. } = &findings[0] else { unreachable!() };
    assert_eq!((evidence["days"].as_u64(), evidence["readings"].as_i64()), (Some(7), Some(7 * 24)));
}

#[test]
fn given_a_meter_never_heard_when_decided_then_it_is_not_stuck() {
    let from = midnight();
    let (_, findings) = decided(&BTreeMap::new(), from, from + 10 * 24 * HOUR_US, &DEFAULTS);
    assert_eq!(findings, Vec::new());
}

#[test]
fn given_a_meter_silent_for_over_a_year_when_it_is_heard_again_then_its_runs_end_without_folding_every_hour() {
    let from = midnight();
    let mut state = State::default();
    let leak = hours(from, &[3_000; 30]);
    assert_eq!(raised(&state.advance(from, from + 30 * HOUR_US, &leak, &DEFAULTS, PARIS)).len(), 1);
    let later = from + 500 * 24 * HOUR_US;
    let findings = state.advance(from, later, &BTreeMap::new(), &DEFAULTS, PARIS);
    assert_eq!(cleared(&findings).first().map(|c| c.0), Some(CONTINUOUS_FLOW));
    assert_eq!(state.next_hour, Some(later));
}

/// Readings of one meter over four days: every few minutes, with a leak
/// (flow in every hour) on days two and three and a burst on day four.
fn series(seed: &[u16]) -> Vec<Reading> {
    let from = midnight();
    (0..4 * 24 * 4)
        .filter_map(|quarter: i64| {
            let hour = quarter / 4;
            let base = normal_day()[(hour % 24) as usize] / 4;
            let leak = if (24..72).contains(&hour) { 400 } else { 0 };
            let burst = if hour == 80 { 600_000 } else { 0 };
            let noise = i64::from(seed[quarter as usize % seed.len()] % 3);
            let ml = base + leak + burst + noise * i64::from(base > 0);
            (ml > 0 || quarter % 8 == 0).then(|| Reading {
                event_id: format!("e{quarter}"),
                meter_id: "m1".into(),
                gateway_id: "g1".into(),
                ml,
                at_us: from + quarter * 15 * 60_000_000 + 60_000_000,
            })
        })
        .collect()
}

/// What `deliveries` leave in the hourly buckets, each reading counted once
/// (as the rollups' claims count them).
fn buckets_of(deliveries: &[Reading]) -> BTreeMap<i64, Sum> {
    let mut seen = HashSet::new();
    let fresh: Vec<Reading> = deliveries.iter().filter(|r| seen.insert(r.event_id.clone())).cloned().collect();
    increments(&fresh, PARIS).meter_hour.into_iter().map(|((_, hour), sum)| (hour, sum)).collect()
}

proptest! {
    #[test]
    fn shuffled_and_duplicated_deliveries_decided_at_any_times_give_the_same_findings(
        seed in proptest::collection::vec(any::<u16>(), 1..40),
        order in any::<u64>(),
        duplicates in proptest::collection::vec(any::<prop::sample::Index>(), 0..60),
        cuts in proptest::collection::vec(0i64..96, 0..6),
    ) {
        let readings = series(&seed);
        let (from, until) = (midnight(), midnight() + 96 * HOUR_US);
        let (_, expected) = decided(&buckets_of(&readings), from, until, &DEFAULTS);
        prop_assert!(raised(&expected).contains(&(CONTINUOUS_FLOW, from + 48 * HOUR_US)), "{expected:?}");

        let mut deliveries = readings.clone();
        deliveries.extend(duplicates.iter().map(|i| readings[i.index(readings.len())].clone()));
        let mut rng = order;
        for i in (1..deliveries.len()).rev() {
            rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            deliveries.swap(i, (rng >> 33) as usize % (i + 1));
        }
        let sums = buckets_of(&deliveries);
        let mut cuts: Vec<i64> = cuts.into_iter().map(|h| from + h * HOUR_US).collect();
        cuts.sort_unstable();
        cuts.push(until);
        let mut state = State::default();
        let mut findings = Vec::new();
        for cut in cuts {
            findings.extend(state.advance(from, cut, &sums, &DEFAULTS, PARIS));
        }
        prop_assert_eq!(findings, expected);
    }
}
