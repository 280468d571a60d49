//! Which alarms a list shows and in what order, and the keyset cursor
//! that pages through them.

use crate::domain::alarm::{Severity, Status};

/// Which alarms: every field narrows the list (values of one field are
/// alternatives).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AlarmFilter {
    pub statuses: Vec<Status>,
    pub severities: Vec<Severity>,
    pub types: Vec<String>,
    pub device_id: Option<String>,
    pub assignee: Option<Assignee>,
    /// Raised at or after (µs).
    pub from: Option<i64>,
    /// Raised before (µs).
    pub to: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Assignee {
    User(String),
    Nobody,
}

/// The order of a list: by raise time, or by severity (most severe
/// first when ascending), then raise time; ties by id.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SortKey {
    #[default]
    RaisedAt,
    Severity,
}

/// Where a page starts: after the last alarm of the page before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cursor {
    pub severity: Option<Severity>,
    pub raised_at: i64,
    pub alarm_id: String,
}

impl Cursor {
    /// The opaque text the API hands out: `r.{µs}.{id}` or `s.{severity}.{µs}.{id}`.
    pub fn encode(&self) -> String {
        match self.severity {
            Some(s) => format!("s.{s}.{}.{}", self.raised_at, self.alarm_id),
            None => format!("r.{}.{}", self.raised_at, self.alarm_id),
        }
    }

    /// Reads back what [`encode`](Self::encode) wrote for `sort`.
    pub fn decode(text: &str, sort: SortKey) -> Option<Cursor> {
        let parts: Vec<&str> = text.split('.').collect();
        let (severity, raised_at, alarm_id) = match (sort, parts.as_slice()) {
            (SortKey::RaisedAt, ["r", at, id]) => (None, at, id),
            (SortKey::Severity, ["s", severity, at, id]) => (Some(severity.parse().ok()?), at, id),
            _ => return None,
        };
        let valid_id = alarm_id.len() == 24 && alarm_id.chars().all(|c| c.is_ascii_hexdigit());
        if !valid_id {
            return None;
        }
        Some(Cursor { severity, raised_at: raised_at.parse().ok()?, alarm_id: (*alarm_id).to_owned() })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page {
    pub sort: SortKey,
    pub descending: bool,
    pub after: Option<Cursor>,
    pub max: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_read_back_for_their_sort_only() {
        let by_time =
            Cursor { severity: None, raised_at: 1_800_000_000_000_000, alarm_id: "0123456789abcdef01234567".into() };
        assert_eq!(Cursor::decode(&by_time.encode(), SortKey::RaisedAt), Some(by_time.clone()));
        assert_eq!(Cursor::decode(&by_time.encode(), SortKey::Severity), None);
        let by_severity = Cursor { severity: Some(Severity::Major), ..by_time };
        assert_eq!(Cursor::decode(&by_severity.encode(), SortKey::Severity), Some(by_severity));
        for bad in ["", "r", "r.x.0123456789abcdef01234567", "r.1.short", "s.bad.1.0123456789abcdef01234567", "r.1.2.3"]
        {
            assert_eq!(Cursor::decode(bad, SortKey::RaisedAt), None, "{bad}");
            assert_eq!(Cursor::decode(bad, SortKey::Severity), None, "{bad}");
        }
    }
}
