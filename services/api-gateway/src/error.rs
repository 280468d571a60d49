//! Everything a forwarded request can fail with, and the one place it
//! becomes an HTTP answer.

use actix_web::http::StatusCode;
use wm_http::ApiError;

#[derive(Debug, thiserror::Error)]
pub enum GatewayError {
    /// The service that owns the path (by name) has no URL, or did not
    /// answer.
    #[error("the {0} service is unavailable")]
    Unavailable(&'static str),
    /// The client's body could not be read.
    #[error("cannot read the request body: {0}")]
    BadBody(String),
    /// The client's body is larger than `http.max_body_bytes`.
    #[error("the body is larger than {0} bytes")]
    TooLarge(usize),
    /// A method no HTTP client library can send on.
    #[error("unsupported method")]
    Method,
}

impl From<GatewayError> for ApiError {
    fn from(e: GatewayError) -> Self {
        match e {
            GatewayError::Unavailable(service) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "service_unavailable",
                format!("The {service} service is unavailable; try again shortly"),
            ),
            GatewayError::BadBody(message) => ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message),
            GatewayError::TooLarge(limit) => ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "payload_too_large",
                format!("The body is larger than {limit} bytes"),
            ),
            GatewayError::Method => {
                ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed", "Unsupported method")
            }
        }
    }
}
