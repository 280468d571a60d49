//! The registry's tables: one module per concern, every function written
//! once for both databases.

pub mod devices;
pub mod identifiers;
pub mod lists;
pub mod rows;
pub mod search;
pub mod state;

use crate::domain::InvalidEvent;

#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("registry storage failed")]
    Database(#[from] sqlx::Error),
    /// An identifier (`field`, `value`) belongs to another device.
    #[error("{field} {value} is already in use")]
    Taken { field: &'static str, value: String },
    #[error("a stored device is corrupt")]
    Corrupt(#[from] InvalidEvent),
}

/// Microseconds since the epoch: how times are stored.
pub(crate) fn micros(at: chrono::DateTime<chrono::Utc>) -> i64 {
    at.timestamp_micros()
}

/// A stored time back as a chrono time.
pub(crate) fn from_micros(field: &'static str, micros: i64) -> Result<chrono::DateTime<chrono::Utc>, InvalidEvent> {
    chrono::DateTime::from_timestamp_micros(micros).ok_or_else(|| InvalidEvent { field, value: micros.to_string() })
}
