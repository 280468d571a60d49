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

/// Where a page starts: after the last alarm of the page before. It holds
/// every sort key, so any cursor reads back under any sort order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cursor {
    pub severity: Severity,
    pub raised_at: i64,
    pub alarm_id: String,
}

impl Cursor {
    /// The opaque text the API hands out: `{severity}.{µs}.{id}`.
    pub fn encode(&self) -> String {
        format!("{}.{}.{}", self.severity, self.raised_at, self.alarm_id)
    }

    /// Reads back what [`encode`](Self::encode) wrote.
    pub fn decode(text: &str) -> Option<Cursor> {
        let [severity, raised_at, alarm_id] = text.split('.').collect::<Vec<_>>()[..] else { return None };
        let valid_id = alarm_id.len() == 24 && alarm_id.chars().all(|c| c.is_ascii_hexdigit());
        if !valid_id {
            return None;
        }
        Some(Cursor {
            severity: severity.parse().ok()?,
            raised_at: raised_at.parse().ok()?,
            alarm_id: alarm_id.to_owned(),
        })
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
    fn cursors_read_back_and_nothing_else_does() {
        let cursor = Cursor {
            severity: Severity::Major,
            raised_at: 1_800_000_000_000_000,
            alarm_id: "0123456789abcdef01234567".into(),
        };
        assert_eq!(Cursor::decode(&cursor.encode()), Some(cursor));
        for bad in [
            "",
            "major",
            "major.x.0123456789abcdef01234567",
            "major.1.short",
            "bad.1.0123456789abcdef01234567",
            "major.1.2.3",
        ] {
            assert_eq!(Cursor::decode(bad), None, "{bad}");
        }
    }
}
