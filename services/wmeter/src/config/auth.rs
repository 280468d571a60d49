use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use wm_auth::SessionSettings;
use wm_http::auth::{JwtSettings, MIN_KEY_BYTES};

use super::{ConfigError, Mode};

/// The `auth` section.
#[derive(Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct AuthSettings {
    /// The HMAC key that signs access tokens: at least 32 bytes, and the same
    /// on every service. Required in distributed mode. Without it the
    /// embedded mode generates one into `key_file` and keeps it there.
    pub jwt_key: Option<String>,
    /// Where the embedded mode keeps its generated key (mode 0600).
    pub key_file: PathBuf,
    pub jwt: JwtSettings,
    pub sessions: SessionSettings,
}

impl Default for AuthSettings {
    fn default() -> Self {
        Self {
            jwt_key: None,
            key_file: PathBuf::from("data/jwt.key"),
            jwt: JwtSettings::default(),
            sessions: SessionSettings::default(),
        }
    }
}

impl std::fmt::Debug for AuthSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthSettings")
            .field("jwt_key", &self.jwt_key.as_ref().map(|_| "***"))
            .field("key_file", &self.key_file)
            .field("jwt", &self.jwt)
            .field("sessions", &self.sessions)
            .finish()
    }
}

impl AuthSettings {
    pub(super) fn validate(&self, mode: Mode) -> Result<(), ConfigError> {
        match &self.jwt_key {
            None if mode == Mode::Distributed => Err(ConfigError::invalid(
                "auth.jwt_key",
                format!(
                    "required in distributed mode, the same on every service; expected at least {MIN_KEY_BYTES} \
                     random bytes, e.g. WMETER_AUTH__JWT_KEY=$(openssl rand -hex 32)"
                ),
            )),
            Some(key) if key.len() < MIN_KEY_BYTES => Err(ConfigError::invalid(
                "auth.jwt_key",
                format!("{} bytes is too short; expected at least {MIN_KEY_BYTES} random bytes", key.len()),
            )),
            _ => Ok(()),
        }
    }
}
