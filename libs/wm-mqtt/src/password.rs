//! Password hashes in Mosquitto's password-file format (`$7$`: PBKDF2 with
//! HMAC-SHA512), so that one stored hash serves the embedded broker and a
//! Mosquitto password file alike:
//! `$7$<iterations>$<base64 salt>$<base64 hash>`.

use std::num::NonZeroU32;

use base64::{Engine, engine::general_purpose::STANDARD};
use ring::pbkdf2;

/// Mosquitto 2.0's own default. The secrets hashed are random (at least
/// 240 bits), so the count guards nothing a guess could reach; it is kept
/// low for the broker's sake, which checks a hash at every connection.
pub const ITERATIONS: u32 = 101;
const SALT_BYTES: usize = 12;
const HASH_BYTES: usize = 64;

/// `secret`'s hash, with a fresh random salt.
pub fn hash(secret: &str) -> String {
    let salt: [u8; SALT_BYTES] = rand::random();
    let iterations = NonZeroU32::new(ITERATIONS).unwrap_or(NonZeroU32::MIN);
    let mut out = [0u8; HASH_BYTES];
    pbkdf2::derive(pbkdf2::PBKDF2_HMAC_SHA512, iterations, &salt, secret.as_bytes(), &mut out);
    format!("$7${ITERATIONS}${}${}", STANDARD.encode(salt), STANDARD.encode(out))
}

/// Whether `secret` is the one `stored` is the hash of, in constant time.
/// A malformed `stored` matches nothing.
pub fn verify(secret: &str, stored: &str) -> bool {
    let mut parts = stored.split('$');
    let (Some(""), Some("7"), Some(iterations), Some(salt), Some(expected), None) =
        (parts.next(), parts.next(), parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let Some(iterations) = iterations.parse::<u32>().ok().and_then(NonZeroU32::new) else { return false };
    let (Ok(salt), Ok(expected)) = (STANDARD.decode(salt), STANDARD.decode(expected)) else { return false };
    pbkdf2::verify(pbkdf2::PBKDF2_HMAC_SHA512, iterations, &salt, secret.as_bytes(), &expected).is_ok()
}

/// Whether two passwords are equal, in time that depends on their lengths
/// only.
pub fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_secret_only() {
        let stored = hash("s3cret");
        assert!(stored.starts_with("$7$101$"));
        assert!(verify("s3cret", &stored));
        assert!(!verify("s3cret ", &stored));
        assert_ne!(hash("s3cret"), stored, "salted");
    }

    #[test]
    fn a_hash_made_by_mosquitto_passwd_verifies() {
        // `mosquitto_passwd -b file gw secret` (Mosquitto 2.0.11).
        let stored = "$7$101$+W6aFTB6w7njHjZP$BLjMij0t0VRF2Usjkaj4I/WojKDXs2zVZyd6RWb18M3wpCHaxWI+Ax/GCQe2b9+g77JqrkGKzeOX41+OyW9XvA==";
        assert!(verify("secret", stored));
        assert!(!verify("Secret", stored));
    }

    #[test]
    fn same_compares_whole_passwords() {
        assert!(same("abc", "abc"));
        assert!(!same("abc", "abd"));
        assert!(!same("abc", "ab"));
        assert!(!same("", "a"));
    }

    #[test]
    fn malformed_hashes_match_nothing() {
        for stored in ["", "$7$", "$6$101$c2FsdA==$aGFzaA==", "$7$0$c2FsdA==$aGFzaA==", "$7$101$!!$aGFzaA==", "plain"] {
            assert!(!verify("x", stored), "{stored}");
        }
    }
}
