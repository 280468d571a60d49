//! Everything a telemetry request can fail with, and the one place it
//! becomes an HTTP answer.

use actix_web::http::StatusCode;
use wm_http::ApiError;
use wm_storage::StorageError;

use crate::domain::{
    shutdown::{ShutdownError, Status},
    valve::ValveError,
};

#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    /// A query parameter, path segment or body field that cannot be used.
    #[error("{0}")]
    BadRequest(String),
    #[error("the meter has no shutdown request")]
    NoShutdownRequest,
    /// The request was answered already.
    #[error("the shutdown request was already {0}")]
    NotPending(Status),
    /// A confirmation whose audit record cannot be staged: nothing was done.
    #[error("the answer's audit record cannot be written")]
    AuditUnavailable(#[source] StorageError),
    #[error(transparent)]
    Valve(#[from] ValveError),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl From<ShutdownError> for IngestError {
    fn from(e: ShutdownError) -> Self {
        match e {
            ShutdownError::NotFound => IngestError::NoShutdownRequest,
            ShutdownError::NotPending(status) => IngestError::NotPending(status),
        }
    }
}

impl From<IngestError> for ApiError {
    fn from(e: IngestError) -> Self {
        match e {
            IngestError::BadRequest(message) => ApiError::validation(message),
            IngestError::NoShutdownRequest => ApiError::not_found("This meter has no shutdown request"),
            IngestError::NotPending(status) => {
                ApiError::conflict("not_pending", format!("The shutdown request was already {status}"))
            }
            IngestError::AuditUnavailable(_) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "audit_unavailable",
                "The audit record could not be written, so the answer was not saved and no valve command was sent",
            ),
            e @ IngestError::Valve(_) => ApiError::internal(&e),
            IngestError::Storage(e) => e.into(),
        }
    }
}
