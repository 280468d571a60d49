//! A user: who may sign in, with which role.

use chrono::{DateTime, Utc};
use wm_http::auth::Role;

/// The longest username accepted.
pub const MAX_USERNAME_CHARS: usize = 64;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    pub id: String,
    pub username: String,
    pub role: Role,
    pub disabled: bool,
    pub created_at: DateTime<Utc>,
    /// Raised by every change that ends their sessions: access tokens
    /// issued at a lower version are refused ([`wm_http::auth::Principals`]).
    pub token_version: u64,
    /// A one-time password set by an admin: nothing but a password change
    /// until it is replaced.
    pub must_change_password: bool,
}

/// A username that breaks the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the username must be 1 to {MAX_USERNAME_CHARS} characters, without control characters")]
pub struct InvalidUsername;

/// The username as stored: trimmed (the spec trims it at sign-in too).
pub fn normalize_username(username: &str) -> Result<&str, InvalidUsername> {
    let username = username.trim();
    let chars = username.chars().count();
    if chars == 0 || chars > MAX_USERNAME_CHARS || username.chars().any(char::is_control) {
        return Err(InvalidUsername);
    }
    Ok(username)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_a_padded_name_when_normalized_then_it_is_trimmed_and_bad_ones_are_refused() {
        assert_eq!(normalize_username("  ann "), Ok("ann"));
        assert_eq!(normalize_username(&"é".repeat(MAX_USERNAME_CHARS)), Ok("é".repeat(MAX_USERNAME_CHARS).as_str()));
        for bad in ["", "   ", "tab\there", &"x".repeat(MAX_USERNAME_CHARS + 1)] {
            assert_eq!(normalize_username(bad), Err(InvalidUsername), "{bad:?}");
        }
    }
}
