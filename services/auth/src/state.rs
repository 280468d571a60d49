use std::time::Duration;

use wm_http::auth::AccessTokens;
use wm_storage::Db;

use crate::{
    SessionSettings, actions::Stores, audit::Audit, cookie::RefreshCookie, hashers::Hashers, limiter::LoginLimiter,
    metrics::LoginMetrics, password, storage::sessions::SessionPolicy,
};

/// What the auth routes share.
#[derive(Debug)]
pub struct AuthState {
    pub db: Db,
    pub audit: Audit,
    pub policy: SessionPolicy,
    pub cookie: RefreshCookie,
    pub limiter: LoginLimiter,
    /// Where sign-ins verify passwords: `max_concurrent_hashes` threads,
    /// each hash 19 MiB and tens of ms.
    pub hashers: Hashers,
    /// Verified when the username is unknown, so that a wrong username takes
    /// as long as a wrong password and timing does not reveal who exists.
    pub dummy_hash: String,
    /// Sign-ins by outcome; the caller registers them (`/metrics`).
    pub logins: LoginMetrics,
}

impl AuthState {
    /// Where an account change is made, recorded and followed, with this
    /// process's token versions from `tokens`.
    pub fn stores<'a>(&'a self, tokens: &'a AccessTokens) -> Stores<'a> {
        (&self.db, &self.audit, tokens.principals().as_ref())
    }

    /// Builds the state; hashes the timing decoy once (CPU-bound).
    pub async fn new(db: Db, audit: Audit, settings: &SessionSettings) -> Result<Self, password::PasswordError> {
        let dummy_hash = tokio::task::spawn_blocking(|| password::hash("timing-decoy-password"))
            .await
            .map_err(|e| password::PasswordError::Hashing(e.to_string()))??;
        Ok(Self {
            db,
            audit,
            policy: SessionPolicy {
                lifetime: Duration::from_secs(settings.refresh_ttl_secs),
                reuse_grace: Duration::from_secs(settings.reuse_grace_secs),
            },
            cookie: RefreshCookie { secure: settings.secure_cookie, max_age_secs: settings.refresh_ttl_secs },
            limiter: LoginLimiter::new(settings.max_failures_per_ip, settings.max_failures_per_user),
            hashers: Hashers::start(settings.max_concurrent_hashes as usize),
            dummy_hash,
            logins: LoginMetrics::default(),
        })
    }
}
