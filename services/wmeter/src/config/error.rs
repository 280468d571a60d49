use thiserror::Error;
use wm_storage::StorageError;

/// A configuration that cannot be used. The message always names the key
/// and says what form was expected.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("invalid configuration: {key}: {message}")]
    Invalid { key: String, message: String },
    #[error("cannot read the configuration file {path}: {message}")]
    File { path: String, message: String },
}

impl ConfigError {
    pub fn invalid(key: impl Into<String>, message: impl Into<String>) -> Self {
        ConfigError::Invalid { key: key.into(), message: message.into() }
    }

    pub(crate) fn from_storage(e: StorageError) -> Self {
        match e {
            StorageError::InvalidSettings { key, message } => ConfigError::invalid(key, message),
            other => ConfigError::invalid("database", other.to_string()),
        }
    }
}
