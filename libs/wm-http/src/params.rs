//! Query parameters every list shares: `max` and `start`. Each returns the
//! message a 400 carries.

use chrono::{DateTime, NaiveDate, Utc};

/// `max`: a whole number from 1 to `limit`, `default` when absent.
pub fn max(value: Option<&str>, default: i64, limit: i64) -> Result<i64, String> {
    match value {
        None => Ok(default),
        Some(max) => max
            .parse()
            .ok()
            .filter(|m| (1..=limit).contains(m))
            .ok_or_else(|| format!("max must be a whole number from 1 to {limit}, not {max:?}")),
    }
}

/// `start`: an ISO 8601 date (midnight UTC) or date-time with an offset.
pub fn start(s: &str) -> Result<DateTime<Utc>, String> {
    if let Ok(at) = DateTime::parse_from_rfc3339(s) {
        return Ok(at.with_timezone(&Utc));
    }
    NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|at| at.and_utc())
        .ok_or_else(|| {
            format!("start must be an ISO 8601 date (2025-01-31) or date-time (2025-01-31T23:59:59.999Z), not {s:?}")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_is_bounded() {
        assert_eq!(max(None, 20, 500), Ok(20));
        assert_eq!(max(Some("500"), 20, 500), Ok(500));
        for bad in ["0", "501", "-1", "x", "100000"] {
            assert!(max(Some(bad), 20, 500).unwrap_err().starts_with("max must be"), "{bad}");
        }
    }

    #[test]
    fn dates_and_date_times_are_accepted() {
        assert_eq!(start("2025-01-31").unwrap().timestamp_micros(), 1_738_281_600_000_000);
        assert_eq!(start("2025-01-31T23:59:59.999999Z").unwrap().timestamp_micros(), 1_738_367_999_999_999);
        assert_eq!(start("2025-01-31T01:00:00+01:00").unwrap().timestamp_micros(), 1_738_281_600_000_000);
        assert!(start("31/01/2025").is_err());
    }
}
