//! Each user's token version, as this process last heard it (DESIGN §11,
//! Administration). An access token carries the version its user had when
//! it was issued; a role change, a disable, a password reset or a
//! revocation raises the version with an auth event, which every process
//! follows (`wm_auth::principals`). From then on the older tokens are
//! refused on the very next request, whichever replica gets it.
//!
//! Only versions raised within an access token's lifetime matter: an older
//! token has expired anyway. So a process that starts reads the auth topic
//! before it serves, and a user it has heard nothing about is at version 0.
//!
//! The same follower keeps the API keys ([`KeyRing`]).

use super::api_keys::KeyRing;
use std::{
    collections::HashMap,
    sync::{
        RwLock,
        atomic::{AtomicBool, Ordering},
    },
};

/// Why a verified token is refused all the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Its user's version moved past it.
    Revoked,
    /// This process has not read the auth topic to its end yet.
    NotCaughtUp,
}

/// Token versions by user id. Starts caught up and empty: a process that
/// follows no auth topic (a test, the API gateway, which forwards to
/// services that check) verifies tokens by their signature alone.
#[derive(Debug)]
pub struct Principals {
    versions: RwLock<HashMap<String, u64>>,
    /// The API keys, from the same topic.
    pub keys: KeyRing,
    caught_up: AtomicBool,
    followed: AtomicBool,
}

impl Default for Principals {
    fn default() -> Self {
        Self {
            versions: RwLock::default(),
            keys: KeyRing::default(),
            caught_up: AtomicBool::new(true),
            followed: AtomicBool::new(false),
        }
    }
}

impl Principals {
    /// Raises `user_id`'s version to `version`; a lower one (an event read
    /// again) changes nothing.
    pub fn raise(&self, user_id: &str, version: u64) {
        let mut versions = self.versions.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        let at = versions.entry(user_id.to_owned()).or_default();
        *at = (*at).max(version);
    }

    /// The version `user_id`'s tokens must carry at least.
    pub fn version(&self, user_id: &str) -> u64 {
        let versions = self.versions.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        versions.get(user_id).copied().unwrap_or_default()
    }

    /// Marks the versions incomplete until [`caught_up`](Self::caught_up):
    /// the follower calls it before it reads the topic from its start.
    pub fn following(&self) {
        self.followed.store(true, Ordering::Release);
        self.caught_up.store(false, Ordering::Release);
    }

    /// Whether this process follows the auth topic: it then answers for
    /// the account's state too (a password to change first), which a
    /// process that only forwards leaves to the service behind it.
    pub fn followed(&self) -> bool {
        self.followed.load(Ordering::Acquire)
    }

    /// Marks the versions complete: the topic was read to its end.
    pub fn caught_up(&self) {
        self.caught_up.store(true, Ordering::Release);
    }

    pub fn is_caught_up(&self) -> bool {
        self.caught_up.load(Ordering::Acquire)
    }

    /// [`Refusal::NotCaughtUp`] until the topic was read to its end.
    pub fn check_caught_up(&self) -> Result<(), Refusal> {
        if self.is_caught_up() { Ok(()) } else { Err(Refusal::NotCaughtUp) }
    }

    /// Whether a token of `user_id` at `version` is still good.
    pub fn check(&self, user_id: &str, version: u64) -> Result<(), Refusal> {
        self.check_caught_up()?;
        if version < self.version(user_id) { Err(Refusal::Revoked) } else { Ok(()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_a_raised_version_when_an_older_token_comes_then_it_is_revoked_and_newer_ones_pass() {
        let principals = Principals::default();
        assert_eq!(principals.check("ann", 0), Ok(()), "unknown users are at version 0");
        principals.raise("ann", 3);
        principals.raise("ann", 2);
        assert_eq!(principals.version("ann"), 3, "an event read again does not lower the version");
        assert_eq!(principals.check("ann", 2), Err(Refusal::Revoked));
        assert_eq!(principals.check("ann", 3), Ok(()));
        assert_eq!(principals.check("bob", 0), Ok(()), "other users are untouched");
    }

    #[test]
    fn given_a_follower_that_has_not_caught_up_when_a_token_comes_then_it_waits() {
        let principals = Principals::default();
        principals.following();
        assert_eq!(principals.check("ann", 5), Err(Refusal::NotCaughtUp));
        principals.caught_up();
        assert_eq!(principals.check("ann", 5), Ok(()));
    }
}
