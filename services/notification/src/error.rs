//! Everything a notification request can fail with, and the one place it
//! becomes an HTTP answer.

use wm_http::ApiError;
use wm_storage::StorageError;

#[derive(Debug, thiserror::Error)]
pub enum NotificationError {
    /// A user asked for another user's notifications.
    #[error("another user's notifications")]
    NotYours,
    /// A `Last-Event-ID` that no stream sent.
    #[error("Last-Event-ID {0:?} is not an event id")]
    BadLastEventId(String),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl From<NotificationError> for ApiError {
    fn from(e: NotificationError) -> Self {
        match e {
            NotificationError::NotYours => ApiError::forbidden("You can read only your own notifications"),
            NotificationError::BadLastEventId(_) => {
                ApiError::validation("Last-Event-ID must be the id of an event this stream sent: a whole number")
            }
            NotificationError::Storage(e) => e.into(),
        }
    }
}
