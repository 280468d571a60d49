//! Password hashing: argon2id at the OWASP minimum (19 MiB, 2 passes, 1 lane).

use argon2::{Algorithm, Argon2, Params, PasswordHasher, PasswordVerifier, Version};

/// Shorter passwords are refused when a user is created.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// Longer ones are refused too: hashing cost must not be the caller's choice.
pub const MAX_PASSWORD_CHARS: usize = 256;
/// A sign-in with a longer one is refused before hashing (256 characters
/// are at most 1024 bytes).
pub const MAX_PASSWORD_BYTES: usize = 4 * MAX_PASSWORD_CHARS;

const MEMORY_KIB: u32 = 19 * 1024;
const PASSES: u32 = 2;
const LANES: u32 = 1;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PasswordError {
    #[error("the password must be at least {MIN_PASSWORD_CHARS} characters")]
    TooShort,
    #[error("the password must be at most {MAX_PASSWORD_CHARS} characters")]
    TooLong,
    #[error("password hashing failed: {0}")]
    Hashing(String),
}

fn argon2() -> Result<Argon2<'static>, PasswordError> {
    let params = Params::new(MEMORY_KIB, PASSES, LANES, None).map_err(|e| PasswordError::Hashing(e.to_string()))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// The PHC string (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`) of a new
/// password, with a random salt. CPU-heavy: call it off the async workers.
pub fn hash(password: &str) -> Result<String, PasswordError> {
    check(password)?;
    let hash = argon2()?.hash_password(password.as_bytes()).map_err(|e| PasswordError::Hashing(e.to_string()))?;
    Ok(hash.to_string())
}

/// Whether `password` follows the rules: 8 to 256 characters.
pub fn check(password: &str) -> Result<(), PasswordError> {
    match password.chars().count() {
        n if n < MIN_PASSWORD_CHARS => Err(PasswordError::TooShort),
        n if n > MAX_PASSWORD_CHARS => Err(PasswordError::TooLong),
        _ => Ok(()),
    }
}

/// Whether `password` matches `phc`. A malformed stored hash never matches.
/// CPU-heavy, like [`hash`].
pub fn verify(password: &str, phc: &str) -> bool {
    if password.len() > MAX_PASSWORD_BYTES {
        return false;
    }
    argon2().is_ok_and(|a| a.verify_password(password.as_bytes(), phc).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_password_only() {
        let phc = hash("correct horse").unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        assert!(verify("correct horse", &phc));
        assert!(!verify("correct hors", &phc));
        assert_ne!(phc, hash("correct horse").unwrap(), "every hash has its own salt");
    }

    #[test]
    fn weak_or_huge_passwords_are_refused() {
        assert_eq!(hash("1234567"), Err(PasswordError::TooShort));
        assert_eq!(hash(&"x".repeat(MAX_PASSWORD_BYTES + 1)), Err(PasswordError::TooLong));
        assert_eq!(check(&"x".repeat(MAX_PASSWORD_CHARS + 1)), Err(PasswordError::TooLong));
        // Characters are counted, not bytes: the longest of four-byte ones
        // still fits the bytes a sign-in reads.
        let widest = "😀".repeat(MAX_PASSWORD_CHARS);
        assert_eq!(check(&widest), Ok(()));
        assert!(widest.len() <= MAX_PASSWORD_BYTES);
    }

    #[test]
    fn a_malformed_stored_hash_never_matches() {
        assert!(!verify("anything goes", "not-a-phc-string"));
        assert!(!verify("anything goes", ""));
    }
}
