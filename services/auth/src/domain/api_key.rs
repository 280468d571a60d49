//! An API key: a machine's credential with a name, a role and an expiry
//! (docs/administration.md, API keys). The key itself is shown once, when
//! it is made, and only its digest is kept.

use chrono::{DateTime, TimeDelta, Utc};
use wm_http::auth::{Role, api_keys};

/// The longest key name accepted.
pub const MAX_NAME_CHARS: usize = 100;
/// The furthest expiry accepted: a key lives at most this long, so a
/// forgotten one does not work for ever.
pub const MAX_LIFETIME_DAYS: i64 = 730;
/// Random characters after `wmk_` that name the key in lists and logs.
const PREFIX_CHARS: usize = 8;
/// Random characters of the secret part.
const SECRET_CHARS: usize = 40;
/// Lower-case base32: 5 bits a character, nothing to escape anywhere.
const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz234567";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiKey {
    pub id: String,
    pub name: String,
    /// `wmk_` and the key's first random characters: public.
    pub prefix: String,
    pub role: Role,
    pub created_at: DateTime<Utc>,
    /// The user id of the admin who made it.
    pub created_by: String,
    pub expires_at: DateTime<Utc>,
    pub revoked_at: Option<DateTime<Utc>>,
    pub last_used_at: Option<DateTime<Utc>>,
    pub last_used_address: Option<String>,
}

/// Where a key stands at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Active,
    Expired,
    Revoked,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Expired => "expired",
            Status::Revoked => "revoked",
        }
    }
}

impl ApiKey {
    pub fn status(&self, now: DateTime<Utc>) -> Status {
        if self.revoked_at.is_some() {
            Status::Revoked
        } else if self.expires_at <= now {
            Status::Expired
        } else {
            Status::Active
        }
    }
}

/// A key asked for, checked: what is wrong with each field, by its JSON name.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Invalid {
    pub fields: Vec<(&'static str, String)>,
}

/// The name (trimmed) and expiry of a new key, or what is wrong with them.
pub fn check_new(name: &str, expires_at: DateTime<Utc>, now: DateTime<Utc>) -> Result<String, Invalid> {
    let mut invalid = Invalid::default();
    let name = name.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        let message = format!("The name must be 1 to {MAX_NAME_CHARS} characters, without control characters");
        invalid.fields.push(("name", message));
    }
    if expires_at <= now {
        invalid.fields.push(("expiresAt", "The expiry must be in the future".to_owned()));
    } else if expires_at > now + TimeDelta::days(MAX_LIFETIME_DAYS) {
        invalid.fields.push(("expiresAt", format!("The expiry must be at most {MAX_LIFETIME_DAYS} days ahead")));
    }
    if invalid.fields.is_empty() { Ok(name.to_owned()) } else { Err(invalid) }
}

/// A new key, `wmk_<8 random>_<40 random>` (240 random bits), and its
/// public prefix.
pub fn generate() -> (String, String) {
    let random =
        |n: usize| -> String { (0..n).map(|_| char::from(ALPHABET[rand::random_range(0..ALPHABET.len())])).collect() };
    let prefix = format!("{}{}", api_keys::API_KEY_PREFIX, random(PREFIX_CHARS));
    let key = format!("{prefix}_{}", random(SECRET_CHARS));
    (key, prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(expires_at: DateTime<Utc>, revoked_at: Option<DateTime<Utc>>) -> ApiKey {
        ApiKey {
            id: "k1".into(),
            name: "billing".into(),
            prefix: "wmk_abcdefgh".into(),
            role: Role::Viewer,
            created_at: expires_at - TimeDelta::days(30),
            created_by: "u1".into(),
            expires_at,
            revoked_at,
            last_used_at: None,
            last_used_address: None,
        }
    }

    #[test]
    fn given_a_key_when_time_passes_or_it_is_revoked_then_its_status_follows() {
        let now = Utc::now();
        assert_eq!(key(now + TimeDelta::days(1), None).status(now), Status::Active);
        assert_eq!(key(now, None).status(now), Status::Expired);
        assert_eq!(key(now + TimeDelta::days(1), Some(now)).status(now), Status::Revoked);
    }

    #[test]
    fn given_a_new_key_when_its_name_or_expiry_is_wrong_then_each_field_says_why() {
        let now = Utc::now();
        assert_eq!(check_new("  SCADA  ", now + TimeDelta::days(90), now), Ok("SCADA".to_owned()));
        let both = check_new(" ", now, now).unwrap_err();
        assert_eq!(both.fields.iter().map(|(f, _)| *f).collect::<Vec<_>>(), ["name", "expiresAt"]);
        let far = check_new("x", now + TimeDelta::days(MAX_LIFETIME_DAYS + 1), now).unwrap_err();
        assert_eq!(far.fields, [("expiresAt", "The expiry must be at most 730 days ahead".to_owned())]);
        assert!(check_new(&"x".repeat(101), now + TimeDelta::days(1), now).is_err());
        assert!(check_new("a\u{7}b", now + TimeDelta::days(1), now).is_err());
    }

    #[test]
    fn a_generated_key_starts_with_its_prefix_and_holds_240_random_bits() {
        let (key, prefix) = generate();
        assert!(prefix.starts_with("wmk_") && prefix.len() == 12);
        assert!(key.starts_with(&format!("{prefix}_")));
        assert_eq!(key.len(), 12 + 1 + 40);
        assert!(key[4..].bytes().all(|b| b == b'_' || ALPHABET.contains(&b)));
        assert_ne!(generate().0, key);
    }
}
