//! The registry's tables: one module per concern, every function written
//! once for both databases.

pub mod credentials;
pub mod devices;
pub mod identifiers;
pub mod lists;
pub mod map;
pub mod registrations;
pub mod rows;
pub mod search;
pub mod state;

use wm_storage::StorageError;

use crate::domain::InvalidEvent;

/// A stored device whose fields no longer parse is corrupt.
impl From<InvalidEvent> for StorageError {
    fn from(e: InvalidEvent) -> Self {
        StorageError::Corrupt { field: e.field, value: e.value }
    }
}

/// Microseconds since the epoch: how times are stored.
pub(crate) fn micros(at: chrono::DateTime<chrono::Utc>) -> i64 {
    at.timestamp_micros()
}

/// A stored time back as a chrono time.
pub(crate) fn from_micros(field: &'static str, micros: i64) -> Result<chrono::DateTime<chrono::Utc>, InvalidEvent> {
    chrono::DateTime::from_timestamp_micros(micros).ok_or_else(|| InvalidEvent { field, value: micros.to_string() })
}
