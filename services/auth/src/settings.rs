use serde::{Deserialize, Serialize};

/// The `auth.sessions` settings: refresh tokens, their cookie, and login
/// throttling.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct SessionSettings {
    /// `true`: the cookie is `__Secure-wmeter_rt` with `Secure` (HTTPS).
    /// `false`: `wmeter_rt` without `Secure`, for the plain-HTTP demo on
    /// 127.0.0.1, where browsers drop `Secure` cookies.
    pub secure_cookie: bool,
    /// Lifetime of a refresh token, in seconds.
    pub refresh_ttl_secs: u64,
    /// How long a rotated token may still be presented by a second tab.
    pub reuse_grace_secs: u64,
    /// Failed logins allowed per client IP per minute; the next gets 429.
    pub max_failures_per_ip: u32,
    /// Failed logins allowed per username per minute, from all IPs together.
    /// Higher than the per-IP limit, so one attacker cannot lock the real
    /// user out from another address.
    pub max_failures_per_user: u32,
    /// Password hashes computed at once, each on a thread of its own; more
    /// logins wait their turn, up to about a second of work, then get 429.
    pub max_concurrent_hashes: u32,
}

impl Default for SessionSettings {
    fn default() -> Self {
        Self {
            secure_cookie: true,
            refresh_ttl_secs: 14 * 24 * 3600,
            reuse_grace_secs: 10,
            max_failures_per_ip: 10,
            max_failures_per_user: 50,
            max_concurrent_hashes: 1,
        }
    }
}
