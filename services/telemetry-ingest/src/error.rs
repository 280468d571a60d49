//! Everything a telemetry request can fail with, and the one place it
//! becomes an HTTP answer.

use actix_web::http::StatusCode;
use wm_http::ApiError;
use wm_storage::StorageError;

use crate::domain::{
    alarm::AlarmError,
    shutdown::{ShutdownError, Status},
    thresholds::{Field, ThresholdError},
    valve::ValveError,
};

#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    /// A query parameter, path segment or body field that cannot be used.
    #[error("{0}")]
    BadRequest(String),
    /// A field that cannot be used, named in the answer's `fields`.
    #[error("{field}: {message}")]
    Invalid { field: &'static str, message: String },
    /// A confirmation no gateway can carry out: nothing was saved.
    #[error("no gateway has heard the meter")]
    NoGateway,
    /// An alarm cannot be assigned to this user.
    #[error("{0:?} is not an active admin or operator")]
    NotAssignable(String),
    #[error(transparent)]
    Alarm(#[from] AlarmError),
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
    Threshold(#[from] ThresholdError),
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
            IngestError::Invalid { field, message } => ApiError::validation(message.clone()).with_field(field, message),
            IngestError::NoGateway => ApiError::conflict(
                "no_gateway",
                "No gateway has heard this meter, so its valve cannot be closed remotely; the request is still pending",
            ),
            IngestError::NotAssignable(user) => {
                let message = format!("{user} is not an active admin or operator");
                ApiError::conflict("not_assignable", message.clone()).with_field("assignee", message)
            }
            IngestError::Alarm(e) => alarm(e),
            IngestError::Valve(ValveError::NotFound) => ApiError::not_found("No such valve command"),
            IngestError::Valve(e @ ValveError::NotResendable(_)) => {
                ApiError::conflict("not_resendable", capitalized(&e))
            }
            e @ IngestError::Valve(ValveError::Exists) => ApiError::internal(&e),
            IngestError::Threshold(ThresholdError::UnknownMeter) => ApiError::not_found("No such water meter"),
            IngestError::Threshold(ThresholdError::OutOfRange(field)) => {
                let (field, message) = threshold(field);
                ApiError::validation(message).with_field(field, message)
            }
            IngestError::Storage(e) => e.into(),
        }
    }
}

fn alarm(e: AlarmError) -> ApiError {
    let message = capitalized(&e);
    match e {
        AlarmError::NotFound => ApiError::not_found("No such alarm"),
        AlarmError::NotActive(_) => ApiError::conflict("alarm_not_active", message),
        AlarmError::NotOpen(_) => ApiError::conflict("alarm_not_open", message),
        AlarmError::NotCleared(_) => ApiError::conflict("alarm_not_cleared", message),
        AlarmError::Closed => ApiError::conflict("alarm_closed", message),
        AlarmError::EmptyComment => ApiError::validation(message.clone()).with_field("text", message),
        AlarmError::TooLong(field) => ApiError::validation(message.clone()).with_field(field, message),
    }
}

/// The API's name of a threshold, and the range it must be in.
fn threshold(field: Field) -> (&'static str, &'static str) {
    match field {
        Field::ContinuousFlowHours => ("continuousFlowHours", "Must be a whole number of hours from 2 to 168"),
        Field::NightFlow => ("nightFlowLitresPerHour", "Must be from 0.001 to 1000000 litres an hour"),
        Field::Burst => ("burstLitresPerHour", "Must be from 0.001 to 1000000 litres an hour"),
        Field::StuckDays => ("stuckMeterDays", "Must be a whole number of days from 1 to 365"),
    }
}

/// A domain error's message as a sentence.
fn capitalized(e: &dyn std::error::Error) -> String {
    let text = e.to_string();
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}
