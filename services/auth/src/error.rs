//! Everything an auth request or account change can fail with, and the one
//! place it becomes an HTTP answer.

use actix_web::http::StatusCode;
use wm_http::{ApiError, auth::TokenError};
use wm_storage::StorageError;

use crate::{
    domain::{account::Refused, api_key::Invalid, user::InvalidUsername},
    hashers::HashersError,
    password::PasswordError,
};

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// A wrong username, a wrong password, a disabled user, or a refresh
    /// token that is unknown, expired, revoked or replayed: the answer never
    /// says which.
    #[error("invalid credentials")]
    InvalidCredentials,
    /// Too many failed sign-ins from this address or for this user.
    #[error("too many failed sign-ins; retry in {retry_after_secs} s")]
    Throttled { retry_after_secs: u64 },
    /// The password-hashing queue is full: about a second of work waits.
    #[error("too many sign-ins at once")]
    Busy,
    /// A refresh without the custom header a cross-site form cannot send.
    #[error("the refresh header is missing")]
    CsrfHeaderRequired,
    /// A query parameter that cannot be used.
    #[error("{0}")]
    BadRequest(String),
    #[error("{}", InvalidUsername)]
    InvalidUsername,
    #[error("the username '{0}' is taken")]
    UsernameTaken(String),
    #[error("no user is named '{0}'")]
    NoSuchUser(String),
    #[error("no user has the id '{0}'")]
    NoSuchUserId(String),
    #[error("no API key has the id '{0}'")]
    NoSuchApiKey(String),
    /// A new API key's name or expiry is wrong, field by field.
    #[error("the API key is not valid")]
    InvalidApiKey(Invalid),
    #[error(transparent)]
    Refused(#[from] Refused),
    /// A password change whose current password is wrong.
    #[error("the current password is wrong")]
    WrongPassword,
    #[error(transparent)]
    Password(#[from] PasswordError),
    #[error("password hashing failed")]
    Hashing(#[source] HashersError),
    #[error("password hashing was interrupted")]
    Interrupted(#[from] tokio::task::JoinError),
    #[error("cannot sign the access token")]
    Token(#[from] TokenError),
    #[error("the change was made, but its audit record could not be written")]
    Unrecorded(#[from] wm_eventlog::EventLogError),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl From<InvalidUsername> for AuthError {
    fn from(_: InvalidUsername) -> Self {
        AuthError::InvalidUsername
    }
}

impl From<HashersError> for AuthError {
    fn from(e: HashersError) -> Self {
        match e {
            HashersError::Busy => AuthError::Busy,
            other => AuthError::Hashing(other),
        }
    }
}

impl From<AuthError> for ApiError {
    fn from(e: AuthError) -> Self {
        match e {
            AuthError::InvalidCredentials => {
                ApiError::new(StatusCode::UNAUTHORIZED, "invalid_credentials", "Invalid credentials")
            }
            AuthError::Throttled { retry_after_secs } => {
                ApiError::too_many_requests("Too many failed sign-ins; wait and try again", retry_after_secs)
            }
            AuthError::Busy => ApiError::too_many_requests("Too many sign-ins at once; try again in a moment", 1),
            AuthError::CsrfHeaderRequired => ApiError::new(
                StatusCode::FORBIDDEN,
                "csrf_header_required",
                "A refresh needs the X-WMeter-Refresh request header",
            ),
            AuthError::BadRequest(message) => ApiError::validation(message),
            e @ AuthError::InvalidUsername => ApiError::validation(e.to_string()).with_field("username", e.to_string()),
            e @ AuthError::Password(_) => ApiError::validation(e.to_string()).with_field("password", e.to_string()),
            e @ AuthError::UsernameTaken(_) => ApiError::conflict("already_in_use", e.to_string()),
            e @ (AuthError::NoSuchUser(_) | AuthError::NoSuchUserId(_) | AuthError::NoSuchApiKey(_)) => {
                ApiError::not_found(capitalized(&e.to_string()))
            }
            AuthError::InvalidApiKey(invalid) => {
                let first = invalid.fields.first().map_or_else(String::new, |(_, message)| message.clone());
                invalid
                    .fields
                    .into_iter()
                    .fold(ApiError::validation(first), |e, (field, message)| e.with_field(field, message))
            }
            AuthError::Refused(refusal) => ApiError::conflict(refusal.code(), capitalized(&refusal.to_string())),
            AuthError::WrongPassword => ApiError::validation("The current password is wrong")
                .with_field("currentPassword", "The current password is wrong"),
            AuthError::Storage(e) => e.into(),
            e
            @ (AuthError::Hashing(_) | AuthError::Interrupted(_) | AuthError::Token(_) | AuthError::Unrecorded(_)) => {
                ApiError::internal(&e)
            }
        }
    }
}

/// `message` as a sentence: its first letter capitalized.
fn capitalized(message: &str) -> String {
    let mut chars = message.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}
