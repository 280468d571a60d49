use serde::{Deserialize, Serialize};

use crate::{Backend, StorageError};

/// The `database` section of the configuration.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct DatabaseSettings {
    /// `sqlite://path/to/file.db` or `postgres://user:pass@host:port/db`.
    pub url: String,
    pub max_connections: u32,
    /// How long a request waits for a pooled connection before it fails
    /// (and the API answers 503), in milliseconds.
    pub acquire_timeout_ms: u64,
    /// SQLite only: the length in MiB past which the WAL is started over,
    /// a turn of the writer waiting for its readers (`checkpoint.rs`), and
    /// the size its file is cut back to then (`journal_size_limit`).
    pub wal_limit_mib: u64,
}

/// The bounds of [`DatabaseSettings::wal_limit_mib`]: at least the 16 MiB
/// past which a checkpoint also takes a turn of the writer, and at most
/// 64 GiB.
const WAL_LIMIT_MIB: std::ops::RangeInclusive<u64> = 16..=65_536;

impl Default for DatabaseSettings {
    fn default() -> Self {
        Self {
            url: "sqlite://data/wmeter.db".to_owned(),
            max_connections: 8,
            acquire_timeout_ms: 5_000,
            wal_limit_mib: 256,
        }
    }
}

impl DatabaseSettings {
    pub fn with_url(url: impl Into<String>) -> Self {
        Self { url: url.into(), ..Self::default() }
    }

    /// The backend named by the URL scheme, or an error that names the key
    /// and the expected form.
    pub fn backend(&self) -> Result<Backend, StorageError> {
        let scheme = self.url.split_once("://").map(|(s, _)| s);
        match scheme {
            Some("sqlite") => Ok(Backend::Sqlite),
            Some("postgres" | "postgresql") => Ok(Backend::Postgres),
            Some(other) => Err(invalid(format!(
                "unknown database scheme '{other}'; expected sqlite://<file> or postgres://<user>@<host>/<db>"
            ))),
            None => Err(invalid(format!(
                "'{}' is not a database URL; expected sqlite://<file> or postgres://<user>@<host>/<db>",
                redact(&self.url)
            ))),
        }
    }

    pub fn validate(&self) -> Result<(), StorageError> {
        self.backend()?;
        if self.max_connections == 0 {
            return Err(StorageError::InvalidSettings {
                key: "database.max_connections",
                message: "must be at least 1".to_owned(),
            });
        }
        if !WAL_LIMIT_MIB.contains(&self.wal_limit_mib) {
            return Err(StorageError::InvalidSettings {
                key: "database.wal_limit_mib",
                message: format!(
                    "{} is out of range; expected {} to {} (MiB)",
                    self.wal_limit_mib,
                    WAL_LIMIT_MIB.start(),
                    WAL_LIMIT_MIB.end()
                ),
            });
        }
        Ok(())
    }
}

fn invalid(message: String) -> StorageError {
    StorageError::InvalidSettings { key: "database.url", message }
}

/// The URL with any password replaced (in the user info, or as a
/// `password=` query parameter), safe to log or print.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let (location, query) = rest.split_once('?').map_or((rest, None), |(l, q)| (l, Some(q)));
    // The user info ends at the last '@' before the path: a password may hold '@'.
    let authority_end = location.find('/').unwrap_or(location.len());
    let mut out = format!("{scheme}://");
    match location[..authority_end].rsplit_once('@') {
        Some((userinfo, host)) => {
            let user = userinfo.split_once(':').map_or(userinfo, |(u, _)| u);
            out.push_str(&format!("{user}:***@{host}{}", &location[authority_end..]));
        }
        None => out.push_str(location),
    }
    if let Some(query) = query {
        let params: Vec<String> = query
            .split('&')
            .map(|p| match p.split_once('=') {
                Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=***"),
                _ => p.to_owned(),
            })
            .collect();
        out.push('?');
        out.push_str(&params.join("&"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scheme_selects_backend() {
        assert_eq!(DatabaseSettings::with_url("sqlite://x.db").backend().ok(), Some(Backend::Sqlite));
        assert_eq!(DatabaseSettings::with_url("postgres://u@h/db").backend().ok(), Some(Backend::Postgres));
        assert_eq!(DatabaseSettings::with_url("postgresql://u@h/db").backend().ok(), Some(Backend::Postgres));
    }

    #[test]
    fn unknown_scheme_names_key_and_expected_form() {
        let err = DatabaseSettings::with_url("mysql://h/db").backend().unwrap_err().to_string();
        assert_eq!(
            err,
            "database.url: unknown database scheme 'mysql'; expected sqlite://<file> or postgres://<user>@<host>/<db>"
        );
    }

    #[test]
    fn not_a_url_is_rejected_without_leaking_it_whole() {
        let err = DatabaseSettings::with_url("data.db").backend().unwrap_err().to_string();
        assert!(err.starts_with("database.url: 'data.db' is not a database URL"), "{err}");
    }

    #[test]
    fn a_wal_limit_out_of_range_names_the_key_and_the_range() {
        for (mib, valid) in [(15, false), (16, true), (256, true), (65_536, true), (65_537, false)] {
            let settings = DatabaseSettings { wal_limit_mib: mib, ..DatabaseSettings::with_url("sqlite://x.db") };
            match settings.validate() {
                Ok(()) => assert!(valid, "{mib} MiB was accepted"),
                Err(e) => assert_eq!(
                    (valid, e.to_string()),
                    (false, format!("database.wal_limit_mib: {mib} is out of range; expected 16 to 65536 (MiB)"))
                ),
            }
        }
    }

    #[test]
    fn redact_hides_password() {
        assert_eq!(redact("postgres://wm:secret@db:5432/wm"), "postgres://wm:***@db:5432/wm");
        assert_eq!(redact("sqlite://data/wmeter.db"), "sqlite://data/wmeter.db");
        assert_eq!(redact("postgres://wm:p@ss@db/wm"), "postgres://wm:***@db/wm");
        assert_eq!(
            redact("postgres://db/wm?user=wm&password=s3cret&sslmode=require"),
            "postgres://db/wm?user=wm&password=***&sslmode=require"
        );
    }
}
