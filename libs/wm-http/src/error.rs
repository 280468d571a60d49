use std::collections::BTreeMap;

use actix_web::{
    HttpRequest, HttpResponse, ResponseError,
    error::{JsonPayloadError, PathError, QueryPayloadError},
    http::StatusCode,
    web,
};
use serde::Serialize;
use wm_storage::StorageError;

/// The JSON error every API answers with: a stable machine `code`, a human
/// `message`, and per-field messages for validation errors.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, thiserror::Error, utoipa::ToSchema)]
#[error("{code}: {message}")]
pub struct ApiError {
    #[serde(skip)]
    pub status: StatusCode,
    /// Stable, for programs: `validation_failed`, `unauthorized`,
    /// `forbidden`, `not_found`, `already_in_use`, `device_seen`, …
    #[schema(example = "validation_failed")]
    pub code: &'static str,
    /// For people.
    #[schema(example = "Some fields are invalid; see fields")]
    pub message: String,
    /// Per request field, the spec's message; only when some field is at fault.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    #[schema(example = json!({"imei": "IMEI must be exactly 15 digits"}))]
    pub fields: BTreeMap<String, String>,
    /// Sent as `Retry-After` (seconds) with 429 and 503.
    #[serde(skip)]
    pub retry_after_secs: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self { status, code, message: message.into(), fields: BTreeMap::new(), retry_after_secs: None }
    }

    /// 429: the caller must wait `retry_after_secs` before trying again.
    pub fn too_many_requests(message: impl Into<String>, retry_after_secs: u64) -> Self {
        Self {
            retry_after_secs: Some(retry_after_secs),
            ..Self::new(StatusCode::TOO_MANY_REQUESTS, "too_many_requests", message)
        }
    }

    /// The message with every field's message after it, on one line: the
    /// whole answer for a log or an audit record.
    pub fn detail(&self) -> String {
        let fields: Vec<String> = self.fields.iter().map(|(field, message)| format!("{field}: {message}")).collect();
        if fields.is_empty() { self.message.clone() } else { format!("{} ({})", self.message, fields.join("; ")) }
    }

    pub fn with_field(mut self, field: impl Into<String>, message: impl Into<String>) -> Self {
        self.fields.insert(field.into(), message.into());
        self
    }

    pub fn validation(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "validation_failed", message)
    }

    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, message)
    }

    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", message)
    }

    /// An unexpected failure: the cause is logged here, once, and the client
    /// sees a generic message.
    pub fn internal(cause: &(dyn std::error::Error + 'static)) -> Self {
        tracing::error!(error = %chain(cause), "request failed");
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", "An unexpected error occurred")
    }
}

/// The one mapping of storage failures to answers, whichever service met
/// them: an identifier another row holds is 409 `already_in_use`; a
/// database that cannot be reached is 503; anything else is a 500 whose
/// cause is logged here, once.
impl From<StorageError> for ApiError {
    fn from(e: StorageError) -> Self {
        match e {
            StorageError::Taken { field, .. } => Self::conflict("already_in_use", format!("{field} is already in use")),
            e if e.is_unavailable() => Self::unavailable("The database is unavailable; try again shortly"),
            e => Self::internal(&e),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status);
        if let Some(secs) = self.retry_after_secs {
            response.insert_header((actix_web::http::header::RETRY_AFTER, secs.to_string()));
        }
        response.json(self)
    }
}

/// The error and its causes on one line.
pub fn chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut out = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        out.push_str(": ");
        out.push_str(&cause.to_string());
        source = cause.source();
    }
    out
}

/// Makes actix's extractor failures (bad JSON, bad query string, bad path,
/// oversized body) answer with [`ApiError`] bodies instead of plain text.
pub fn json_errors(max_body_bytes: usize) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(web::JsonConfig::default().limit(max_body_bytes).error_handler(json_error))
            .app_data(web::QueryConfig::default().error_handler(query_error))
            .app_data(web::PathConfig::default().error_handler(path_error));
    }
}

pub(crate) fn json_error(err: JsonPayloadError, _: &HttpRequest) -> actix_web::Error {
    let api = match &err {
        JsonPayloadError::Overflow { limit } | JsonPayloadError::OverflowKnownLength { limit, .. } => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            format!("The request body is larger than {limit} bytes"),
        ),
        JsonPayloadError::ContentType => ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "The request body must be application/json",
        ),
        other => ApiError::new(StatusCode::BAD_REQUEST, "invalid_json", other.to_string()),
    };
    api.into()
}

fn query_error(err: QueryPayloadError, _: &HttpRequest) -> actix_web::Error {
    ApiError::new(StatusCode::BAD_REQUEST, "invalid_query", err.to_string()).into()
}

fn path_error(err: PathError, _: &HttpRequest) -> actix_web::Error {
    ApiError::new(StatusCode::BAD_REQUEST, "invalid_path", err.to_string()).into()
}

/// The fallback for unknown routes.
pub async fn not_found() -> HttpResponse {
    HttpResponse::from_error(ApiError::not_found("No such route"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_has_code_message_and_fields_only_when_present() {
        let plain = serde_json::to_value(ApiError::not_found("Gateway not found")).unwrap();
        assert_eq!(plain, serde_json::json!({"code": "not_found", "message": "Gateway not found"}));
        let with_field = ApiError::validation("Invalid input").with_field("imei", "IMEI must be exactly 15 digits");
        assert_eq!(
            serde_json::to_value(with_field).unwrap(),
            serde_json::json!({"code": "validation_failed", "message": "Invalid input",
                               "fields": {"imei": "IMEI must be exactly 15 digits"}})
        );
    }
}
