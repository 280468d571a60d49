//! API keys (DESIGN §11, Administration; docs/administration.md): a
//! machine's credential, sent as `Authorization: Bearer wmk_<prefix>_<secret>`
//! wherever an access token goes. An admin makes one with a name, a role
//! and an expiry; it is shown once and kept only as its SHA-256 digest.
//!
//! Every process follows the auth topic (`wm_auth::principals`) into a
//! [`KeyRing`]: the digest, role and expiry of each key, and the keys
//! revoked. A request's key is checked there, so a revoked or expired key
//! is refused at once by every replica, with no database round trip. The
//! ring also keeps each key's latest use, which the follower reports back
//! to the auth service every few seconds.

use std::{
    collections::{HashMap, HashSet},
    net::IpAddr,
    sync::{Mutex, PoisonError, RwLock},
};

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use super::Role;

/// How every API key starts, so that it is recognised in a header, a
/// config file or a leaked-secret scanner.
pub const API_KEY_PREFIX: &str = "wmk_";

/// The routes under these prefixes take an API key only with the admin
/// role: the accounts, the administration and the audit trail.
pub const ADMIN_ONLY_FOR_KEYS: &[&str] = &["/api/auth/", "/api/admin/", "/api/audit"];

/// Whether `token` is an API key rather than a JWT access token.
pub fn is_api_key(token: &str) -> bool {
    token.starts_with(API_KEY_PREFIX)
}

/// The lower-case hex SHA-256 of `key`: what is stored and published. A key
/// holds 240 random bits, so a fast hash is enough (a slow password hash
/// would cost every request tens of milliseconds for nothing).
pub fn digest(key: &str) -> String {
    Sha256::digest(key.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// What a valid key grants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyGrant {
    pub id: String,
    pub role: Role,
    pub expires_at: DateTime<Utc>,
}

/// Why a key is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyRefusal {
    /// No key has this digest.
    Unknown,
    Revoked,
    Expired,
}

/// The latest use of a key in this process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyUse {
    pub key_id: String,
    pub at: DateTime<Utc>,
    pub source_ip: Option<IpAddr>,
}

/// The keys this process knows, by digest, and their uses not yet reported.
#[derive(Debug, Default)]
pub struct KeyRing {
    keys: RwLock<Keys>,
    uses: Mutex<HashMap<String, KeyUse>>,
}

#[derive(Debug, Default)]
struct Keys {
    by_digest: HashMap<String, KeyGrant>,
    revoked: HashSet<String>,
}

impl KeyRing {
    /// Learns a created key (an event read again changes nothing).
    pub fn grant(&self, digest: &str, grant: KeyGrant) {
        let mut keys = self.keys.write().unwrap_or_else(PoisonError::into_inner);
        keys.by_digest.insert(digest.to_owned(), grant);
    }

    /// Learns that the key `id` is revoked, for good.
    pub fn revoke(&self, id: &str) {
        let mut keys = self.keys.write().unwrap_or_else(PoisonError::into_inner);
        keys.revoked.insert(id.to_owned());
    }

    /// What `key` grants at `now`, or why it is refused.
    pub fn check(&self, key: &str, now: DateTime<Utc>) -> Result<KeyGrant, KeyRefusal> {
        let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
        let grant = keys.by_digest.get(&digest(key)).ok_or(KeyRefusal::Unknown)?;
        if keys.revoked.contains(&grant.id) {
            return Err(KeyRefusal::Revoked);
        }
        if grant.expires_at <= now {
            return Err(KeyRefusal::Expired);
        }
        Ok(grant.clone())
    }

    /// Notes a use of the key `key_id`; only the latest is kept.
    pub fn used(&self, key_use: KeyUse) {
        let mut uses = self.uses.lock().unwrap_or_else(PoisonError::into_inner);
        uses.insert(key_use.key_id.clone(), key_use);
    }

    /// The uses noted since the last call, to report.
    pub fn take_uses(&self) -> Vec<KeyUse> {
        let mut uses = self.uses.lock().unwrap_or_else(PoisonError::into_inner);
        uses.drain().map(|(_, key_use)| key_use).collect()
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeDelta;

    use super::*;

    const KEY: &str = "wmk_3fq8k2ma_abcdefghijklmnopqrstuvwxyz234567abcdefgh";

    fn ring_with_key(expires_at: DateTime<Utc>) -> KeyRing {
        let ring = KeyRing::default();
        ring.grant(&digest(KEY), KeyGrant { id: "k1".into(), role: Role::Viewer, expires_at });
        ring
    }

    #[test]
    fn given_a_granted_key_when_it_comes_then_it_grants_its_role_until_it_expires() {
        let now = Utc::now();
        let ring = ring_with_key(now + TimeDelta::hours(1));
        assert_eq!(ring.check(KEY, now).map(|g| g.role), Ok(Role::Viewer));
        assert_eq!(ring.check(KEY, now + TimeDelta::hours(1)), Err(KeyRefusal::Expired));
        assert_eq!(ring.check("wmk_3fq8k2ma_wrong", now), Err(KeyRefusal::Unknown));
    }

    #[test]
    fn given_a_revoked_key_when_it_comes_then_it_is_refused_even_if_granted_again() {
        let now = Utc::now();
        let ring = ring_with_key(now + TimeDelta::hours(1));
        ring.revoke("k1");
        assert_eq!(ring.check(KEY, now), Err(KeyRefusal::Revoked));
        ring.grant(
            &digest(KEY),
            KeyGrant { id: "k1".into(), role: Role::Viewer, expires_at: now + TimeDelta::hours(1) },
        );
        assert_eq!(ring.check(KEY, now), Err(KeyRefusal::Revoked), "the created event read again");
    }

    #[test]
    fn given_uses_when_taken_then_the_latest_of_each_key_is_reported_once() {
        let ring = KeyRing::default();
        let at = Utc::now();
        for (key_id, at) in [("k1", at), ("k1", at + TimeDelta::seconds(1)), ("k2", at)] {
            ring.used(KeyUse { key_id: key_id.into(), at, source_ip: None });
        }
        let mut uses = ring.take_uses();
        uses.sort_by(|a, b| a.key_id.cmp(&b.key_id));
        assert_eq!(
            uses.iter().map(|u| (u.key_id.as_str(), u.at)).collect::<Vec<_>>(),
            [("k1", at + TimeDelta::seconds(1)), ("k2", at)]
        );
        assert!(ring.take_uses().is_empty());
    }

    #[test]
    fn the_digest_is_the_hex_sha256_of_the_whole_key() {
        assert_eq!(digest("test"), "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08");
        assert!(is_api_key(KEY));
        assert!(!is_api_key("eyJhbGciOiJIUzI1NiJ9.e30.x"));
    }
}
