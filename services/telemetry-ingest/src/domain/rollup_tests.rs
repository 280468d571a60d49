use chrono::NaiveDate;

use super::*;

const PARIS: Tz = chrono_tz::Europe::Paris;

fn us(rfc3339: &str) -> i64 {
    DateTime::parse_from_rfc3339(rfc3339).unwrap().timestamp_micros()
}

fn reading(id: &str, meter: &str, gateway: &str, ml: i64, at: &str) -> Reading {
    Reading { event_id: id.into(), meter_id: meter.into(), gateway_id: gateway.into(), ml, at_us: us(at) }
}

#[test]
fn given_readings_in_one_hour_when_rolled_up_then_the_hour_day_gateway_and_network_sum_them() {
    let readings = [
        reading("e1", "m1", "g1", 1_000, "2026-11-22T09:05:00Z"),
        reading("e2", "m1", "g1", 2_500, "2026-11-22T09:55:00Z"),
        reading("e3", "m2", "g1", 700, "2026-11-22T09:30:00Z"),
    ];
    let then = increments(&readings, PARIS);
    let hour = us("2026-11-22T09:00:00Z");
    let day = us("2026-11-21T23:00:00Z"); // local midnight in Paris (UTC+1)
    assert_eq!(then.meter_hour[&("m1".into(), hour)], Sum { volume_ml: 3_500, readings: 2 });
    assert_eq!(then.meter_hour[&("m2".into(), hour)], Sum { volume_ml: 700, readings: 1 });
    assert_eq!(then.meter_day[&("m1".into(), day)], Sum { volume_ml: 3_500, readings: 2 });
    assert_eq!(then.gateway_day[&("g1".into(), day)], Sum { volume_ml: 4_200, readings: 3 });
    assert_eq!(then.network_day[&day], Sum { volume_ml: 4_200, readings: 3 });
    assert_eq!(then.meter_total["m1"], Sum { volume_ml: 3_500, readings: 2 });
}

#[test]
fn given_a_reading_after_local_midnight_when_rolled_up_then_it_is_in_the_local_day_not_the_utc_day() {
    // 23:30 UTC on the 22nd is 00:30 on the 23rd in Paris.
    let then = increments(&[reading("e1", "m1", "g1", 10, "2026-11-22T23:30:00Z")], PARIS);
    assert_eq!(then.network_day.keys().copied().collect::<Vec<_>>(), vec![us("2026-11-22T23:00:00Z")]);
    let utc = increments(&[reading("e1", "m1", "g1", 10, "2026-11-22T23:30:00Z")], chrono_tz::UTC);
    assert_eq!(utc.network_day.keys().copied().collect::<Vec<_>>(), vec![us("2026-11-22T00:00:00Z")]);
}

#[test]
fn given_shuffled_readings_when_rolled_up_then_the_rollups_are_the_same() {
    let mut readings: Vec<Reading> = (0..200)
        .map(|i| {
            reading(&format!("e{i}"), &format!("m{}", i % 7), &format!("g{}", i % 3), i * 13, "2026-03-29T00:00:00Z")
        })
        .map(|mut r| {
            r.at_us += (r.ml % 97) * 3_600_000_000 / 4;
            r
        })
        .collect();
    let before = increments(&readings, PARIS);
    readings.reverse();
    readings.rotate_left(71);
    assert_eq!(increments(&readings, PARIS), before);
}

#[test]
fn given_the_spring_dst_change_when_a_day_starts_then_it_is_local_midnight() {
    // Paris moves from UTC+1 to UTC+2 on 2026-03-29 at 02:00 local.
    assert_eq!(day_start(us("2026-03-29T12:00:00Z"), PARIS), us("2026-03-28T23:00:00Z"));
    assert_eq!(day_start(us("2026-03-30T12:00:00Z"), PARIS), us("2026-03-29T22:00:00Z"));
    // Santiago skips midnight itself: the day starts at 01:00.
    let santiago = chrono_tz::America::Santiago;
    let date = NaiveDate::from_ymd_opt(2026, 9, 6).unwrap();
    assert_eq!(local_start(date, santiago), Some(us("2026-09-06T04:00:00Z")));
}

#[test]
fn hours_are_utc_hours_even_before_the_epoch() {
    assert_eq!(hour_start(us("2026-11-22T09:59:59.999999Z")), us("2026-11-22T09:00:00Z"));
    assert_eq!(hour_start(-1), -HOUR_US);
}

#[test]
fn buckets_cover_a_range_in_local_days_and_months() {
    let days = bucket_starts(Bucket::Day, us("2026-03-28T12:00:00Z"), us("2026-03-30T00:00:00Z"), PARIS);
    // The 28th, the 29th (23 hours long: the clocks go forward) and the 30th.
    assert_eq!(days, vec![us("2026-03-27T23:00:00Z"), us("2026-03-28T23:00:00Z"), us("2026-03-29T22:00:00Z")]);
    let months = bucket_starts(Bucket::Month, us("2026-01-15T00:00:00Z"), us("2026-04-01T00:00:00Z"), PARIS);
    assert_eq!(
        months,
        vec![
            us("2025-12-31T23:00:00Z"),
            us("2026-01-31T23:00:00Z"),
            us("2026-02-28T23:00:00Z"),
            us("2026-03-31T22:00:00Z")
        ]
    );
    let hours = bucket_starts(Bucket::Hour, us("2026-11-22T09:30:00Z"), us("2026-11-22T12:00:00Z"), PARIS);
    assert_eq!(hours, vec![us("2026-11-22T09:00:00Z"), us("2026-11-22T10:00:00Z"), us("2026-11-22T11:00:00Z")]);
}
