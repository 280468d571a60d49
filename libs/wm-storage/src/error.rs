use thiserror::Error;

/// Everything that can go wrong in storage: every storage function of every
/// service returns it, and each service maps it to HTTP in its own error.
#[derive(Debug, Error)]
pub enum StorageError {
    /// The configured URL cannot be used. `key` names the config key.
    #[error("{key}: {message}")]
    InvalidSettings { key: &'static str, message: String },
    #[error("cannot connect to the {backend} database")]
    Connect {
        backend: &'static str,
        #[source]
        source: sqlx::Error,
    },
    #[error("migration {component} v{version} ({name}) failed")]
    Migration {
        component: &'static str,
        version: u32,
        name: &'static str,
        #[source]
        source: sqlx::Error,
    },
    #[error(
        "migration {component} v{version} was changed after it was applied \
         (checksum {applied} in the database, {current} in this build)"
    )]
    ChecksumMismatch { component: &'static str, version: u32, applied: String, current: String },
    #[error(
        "the database holds {component} v{version}, which this build does not know, among or before versions it \
         has not applied: it is not this build's schema"
    )]
    UnknownVersion { component: &'static str, version: u32 },
    #[error("database query failed")]
    Query(#[from] sqlx::Error),
    /// A unique key refused `value` for `field` (the API name of the
    /// field): another row holds it.
    #[error("{field} {value} is already in use")]
    Taken { field: &'static str, value: String },
    /// A stored value that does not parse back: a corrupt or foreign row,
    /// refused rather than trusted.
    #[error("the stored {field} is invalid: {value:?}")]
    Corrupt { field: &'static str, value: String },
}

impl StorageError {
    /// True when the database could not be reached (the API answers 503),
    /// as opposed to a bad query or a constraint violation.
    pub fn is_unavailable(&self) -> bool {
        match self {
            StorageError::Connect { .. } => true,
            StorageError::Query(e) | StorageError::Migration { source: e, .. } => is_unavailable(e),
            _ => false,
        }
    }

    /// [`StorageError::Taken`] naming `field` and `value` when a unique key
    /// refused the statement; any other error as it is.
    pub fn taken_as(self, field: &'static str, value: impl Into<String>) -> Self {
        match self {
            StorageError::Query(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                StorageError::Taken { field, value: value.into() }
            }
            other => other,
        }
    }
}

/// True when a sqlx error means the database could not be reached, as
/// opposed to a bad query or a constraint violation: no connection, a
/// connection lost or garbled (a proxy in front that accepted and closed
/// gives a protocol error), or a server that is shutting down or starting
/// (SQLSTATE class 08, `57P01`–`57P03`) or out of connections (`53300`).
pub fn is_unavailable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_) => true,
        sqlx::Error::Database(db) => db.code().is_some_and(|code| {
            code.starts_with("08") || matches!(code.as_ref(), "57P01" | "57P02" | "57P03" | "53300")
        }),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lost_or_garbled_connections_are_unavailable_and_bad_queries_are_not() {
        let lost = sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionRefused));
        let garbled = sqlx::Error::Protocol("unexpected response from SSLRequest: 0x00".to_owned());
        for unavailable in [sqlx::Error::PoolTimedOut, sqlx::Error::PoolClosed, lost, garbled] {
            assert!(is_unavailable(&unavailable), "{unavailable:?}");
        }
        for fault in [sqlx::Error::RowNotFound, sqlx::Error::ColumnNotFound("x".to_owned())] {
            assert!(!is_unavailable(&fault), "{fault:?}");
        }
    }
}
