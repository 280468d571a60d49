//! Everything a registry request can fail with, and the one place it
//! becomes an HTTP answer.

use std::collections::BTreeMap;

use wm_http::ApiError;
use wm_storage::StorageError;

use crate::domain::DomainError;

#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// Fields that do not pass the spec's rules, with the spec's messages.
    #[error("invalid fields: {0:?}")]
    Invalid(BTreeMap<String, String>),
    /// A query parameter or path segment that cannot be used.
    #[error("{0}")]
    BadRequest(String),
    #[error("no such {0}")]
    NotFound(&'static str),
    /// Identifiers another device holds, with the spec's "… already in use".
    #[error("already in use: {0:?}")]
    Taken(BTreeMap<String, String>),
    #[error("the device has been seen, so it cannot be deleted")]
    Seen,
    /// Something the request needs is not set up (the device CA).
    #[error("{0}")]
    Unavailable(String),
    #[error(transparent)]
    Storage(StorageError),
}

impl RegistryError {
    pub fn invalid(field: &str, message: &str) -> Self {
        Self::Invalid(BTreeMap::from([(field.to_owned(), message.to_owned())]))
    }
}

impl From<StorageError> for RegistryError {
    fn from(e: StorageError) -> Self {
        Self::Storage(e)
    }
}

impl From<DomainError> for RegistryError {
    fn from(e: DomainError) -> Self {
        match e {
            DomainError::NotFound => Self::NotFound("device"),
            DomainError::Seen => Self::Seen,
        }
    }
}

impl From<RegistryError> for ApiError {
    fn from(e: RegistryError) -> Self {
        let with_fields = |mut error: ApiError, fields: BTreeMap<String, String>| {
            error.fields = fields;
            error
        };
        match e {
            RegistryError::Invalid(fields) => {
                with_fields(ApiError::validation("Some fields are invalid; see fields"), fields)
            }
            RegistryError::BadRequest(message) => ApiError::validation(message),
            RegistryError::NotFound(what) => ApiError::not_found(format!("No such {what}")),
            RegistryError::Taken(fields) => {
                with_fields(ApiError::conflict("already_in_use", "Some values are already in use; see fields"), fields)
            }
            RegistryError::Seen => ApiError::conflict(
                "device_seen",
                "This device has already been seen on the network, so it cannot be deleted",
            ),
            RegistryError::Unavailable(message) => ApiError::conflict("device_ca_unavailable", message),
            RegistryError::Storage(storage) => storage.into(),
        }
    }
}
