//! Conversions between `chrono` times and protobuf timestamps.

use chrono::{DateTime, Utc};
use prost_types::Timestamp;

const MAX_NANOS: u32 = 999_999_999;

/// The protobuf timestamp of `at`. A leap second is kept within its second.
pub fn to_timestamp(at: DateTime<Utc>) -> Timestamp {
    let nanos = at.timestamp_subsec_nanos().min(MAX_NANOS);
    Timestamp { seconds: at.timestamp(), nanos: i32::try_from(nanos).unwrap_or(0) }
}

/// The time of `ts`, or `None` when it is outside chrono's range.
/// Timestamps that are not normalized (negative or overflowing nanos) are
/// normalized first.
pub fn to_datetime(ts: &Timestamp) -> Option<DateTime<Utc>> {
    let mut ts = *ts;
    ts.normalize();
    DateTime::from_timestamp(ts.seconds, u32::try_from(ts.nanos).ok()?)
}

/// The current time as a protobuf timestamp.
pub fn now() -> Timestamp {
    to_timestamp(Utc::now())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_at_nanosecond_precision() {
        let at = DateTime::from_timestamp(1_750_000_000, 123_456_789).expect("valid time");
        assert_eq!(to_datetime(&to_timestamp(at)), Some(at));
    }

    #[test]
    fn normalizes_negative_nanos() {
        let ts = Timestamp { seconds: 10, nanos: -1 };
        let expected = DateTime::from_timestamp(9, MAX_NANOS).expect("valid time");
        assert_eq!(to_datetime(&ts), Some(expected));
    }

    #[test]
    fn out_of_range_is_none() {
        let ts = Timestamp { seconds: i64::MAX, nanos: 0 };
        assert_eq!(to_datetime(&ts), None);
    }
}
