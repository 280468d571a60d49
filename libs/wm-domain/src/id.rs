//! Time-ordered entity ids, ObjectId-like: 24 lowercase hex characters.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

use chrono::{DateTime, Utc};
use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::hex;

/// Length of an id's text form (spec §9).
pub const DEVICE_ID_LEN: usize = 24;

/// The message for a malformed id. The spec shows none; this one is ours.
pub const DEVICE_ID_MESSAGE: &str = "Must be exactly 24 hexadecimal characters";

/// The key of the extended-JSON object form, `{"$oid": "…"}`.
pub const OID_KEY: &str = "$oid";

const COUNTER_MASK: u32 = 0x00FF_FFFF;

/// The id of a gateway, a meter or any other entity.
///
/// Twelve bytes: 4 of big-endian unix seconds, 5 random per process, then a
/// 3-byte counter. Ids made by one process therefore sort by creation time
/// (by the second first, then by the counter), and the byte order, the text
/// order and [`Ord`] agree. The counter starts at a random value below 2²³,
/// so it can only wrap after more than 8 million ids.
///
/// The text form is 24 hex digits: either case is read, lower case is written.
/// Serde writes the plain string and reads either the string or `{"$oid": "…"}`
/// (this needs a self-describing format such as JSON).
///
/// In a document, name the field `_id`:
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use wm_domain::DeviceId;
///
/// #[derive(Serialize, Deserialize)]
/// struct Created {
///     #[serde(rename = "_id")]
///     id: DeviceId,
/// }
///
/// let json = r#"{"_id": {"$oid": "507F1F77BCF86CD799439011"}}"#;
/// let created: Created = serde_json::from_str(json).unwrap();
/// assert_eq!(serde_json::to_string(&created).unwrap(), r#"{"_id":"507f1f77bcf86cd799439011"}"#);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeviceId([u8; 12]);

/// A string that is not an id; `Display` is [`DEVICE_ID_MESSAGE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}", DEVICE_ID_MESSAGE)]
pub struct DeviceIdError;

/// The process-wide part of new ids: the only global in this crate.
struct Generator {
    process_random: [u8; 5],
    counter: AtomicU32,
}

fn generator() -> &'static Generator {
    static GENERATOR: OnceLock<Generator> = OnceLock::new();
    GENERATOR.get_or_init(|| Generator {
        process_random: rand::random(),
        counter: AtomicU32::new(rand::random::<u32>() >> 9),
    })
}

impl DeviceId {
    /// A fresh id stamped with the current time.
    #[expect(clippy::new_without_default, reason = "a default id would look like a value but be a random one")]
    pub fn new() -> Self {
        Self::with_timestamp(Utc::now())
    }

    /// A fresh id stamped with `at`, truncated to whole seconds and clamped
    /// to what 32 unsigned bits hold (1970 to 2106).
    pub fn with_timestamp(at: DateTime<Utc>) -> Self {
        let seconds = u32::try_from(at.timestamp().max(0)).unwrap_or(u32::MAX);
        let generator = generator();
        let count = generator.counter.fetch_add(1, Ordering::Relaxed) & COUNTER_MASK;
        let mut bytes = [0u8; 12];
        bytes[..4].copy_from_slice(&seconds.to_be_bytes());
        bytes[4..9].copy_from_slice(&generator.process_random);
        bytes[9..].copy_from_slice(&count.to_be_bytes()[1..]);
        Self(bytes)
    }

    /// Reads 24 hex digits in either case, with nothing around them.
    pub fn parse(s: &str) -> Result<Self, DeviceIdError> {
        let digits = s.as_bytes();
        if digits.len() != DEVICE_ID_LEN {
            return Err(DeviceIdError);
        }
        let mut bytes = [0u8; 12];
        for (byte, pair) in bytes.iter_mut().zip(digits.chunks_exact(2)) {
            *byte = match pair {
                [high, low] => hex::byte(*high, *low).ok_or(DeviceIdError)?,
                _ => return Err(DeviceIdError),
            };
        }
        Ok(Self(bytes))
    }

    /// The id made of these twelve bytes.
    pub const fn from_bytes(bytes: [u8; 12]) -> Self {
        Self(bytes)
    }

    /// The id's twelve bytes.
    pub const fn to_bytes(self) -> [u8; 12] {
        self.0
    }

    /// When the id was made, to the second.
    pub fn timestamp(&self) -> DateTime<Utc> {
        let [a, b, c, d, ..] = self.0;
        let seconds = u32::from_be_bytes([a, b, c, d]);
        DateTime::from_timestamp(i64::from(seconds), 0).unwrap_or_default()
    }
}

impl fmt::Display for DeviceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut text = [0u8; DEVICE_ID_LEN];
        for (pair, byte) in text.chunks_exact_mut(2).zip(self.0) {
            pair.copy_from_slice(&[DIGITS[usize::from(byte >> 4)], DIGITS[usize::from(byte & 0x0f)]]);
        }
        f.pad(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for DeviceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DeviceId({self})")
    }
}

impl FromStr for DeviceId {
    type Err = DeviceIdError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl TryFrom<&str> for DeviceId {
    type Error = DeviceIdError;

    fn try_from(s: &str) -> Result<Self, Self::Error> {
        Self::parse(s)
    }
}

impl TryFrom<String> for DeviceId {
    type Error = DeviceIdError;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<DeviceId> for String {
    fn from(id: DeviceId) -> Self {
        id.to_string()
    }
}

impl Serialize for DeviceId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for DeviceId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(IdVisitor)
    }
}

struct IdVisitor;

impl<'de> Visitor<'de> for IdVisitor {
    type Value = DeviceId;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a 24-hex-digit id, plain or as {\"$oid\": \"...\"}")
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        DeviceId::parse(s).map_err(E::custom)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let invalid = || de::Error::custom(DeviceIdError);
        match map.next_key::<String>() {
            Ok(Some(key)) if key == OID_KEY => {}
            _ => return Err(invalid()),
        }
        let Ok(text) = map.next_value::<String>() else {
            return Err(invalid());
        };
        if !matches!(map.next_key::<IgnoredAny>(), Ok(None)) {
            return Err(invalid());
        }
        DeviceId::parse(&text).map_err(de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    #[test]
    fn a_new_id_is_24_lowercase_hex_digits_stamped_now() {
        // Given the time before and after
        let before = Utc::now().timestamp();
        // When an id is made
        let id = DeviceId::new();
        let after = Utc::now().timestamp();
        // Then its text is canonical and its timestamp lies in between
        let text = id.to_string();
        assert_eq!(text.len(), DEVICE_ID_LEN);
        assert!(text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')), "{text}");
        assert!((before..=after).contains(&id.timestamp().timestamp()));
    }

    #[test]
    fn with_timestamp_sets_the_leading_seconds() {
        let at = DateTime::from_timestamp(0x6543_2100, 0).unwrap();
        let id = DeviceId::with_timestamp(at);
        assert!(id.to_string().starts_with("65432100"));
        assert_eq!(id.timestamp(), at);
    }

    #[test]
    fn ids_in_a_burst_are_unique_and_in_creation_order() {
        // Given a burst of ids made one after another
        let burst: Vec<DeviceId> = (0..10_000).map(|_| DeviceId::new()).collect();
        // Then no two are equal
        let distinct: HashSet<_> = burst.iter().collect();
        assert_eq!(distinct.len(), burst.len());
        // And both the ids and their text forms are already sorted
        assert!(burst.windows(2).all(|w| w[0] < w[1]));
        let texts: Vec<String> = burst.iter().map(ToString::to_string).collect();
        assert!(texts.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn parse_reads_either_case_and_writes_lower_case() {
        let id = DeviceId::parse("507F1F77BCF86CD799439011").unwrap();
        assert_eq!(id.to_string(), "507f1f77bcf86cd799439011");
    }

    #[test]
    fn parse_rejects_other_text_with_the_message() {
        for bad in [
            "",
            "507f1f77bcf86cd79943901",
            "507f1f77bcf86cd7994390111",
            "507f1f77bcf86cd79943901g",
            "é07f1f77bcf86cd79943901",
        ] {
            let err = DeviceId::parse(bad).unwrap_err();
            assert_eq!(err.to_string(), DEVICE_ID_MESSAGE, "{bad:?}");
        }
    }

    #[test]
    fn serde_reads_string_or_oid_object_and_writes_a_string() {
        let plain: DeviceId = serde_json::from_str("\"507f1f77bcf86cd799439011\"").unwrap();
        let oid: DeviceId = serde_json::from_str(r#"{"$oid":"507f1f77bcf86cd799439011"}"#).unwrap();
        assert_eq!(plain, oid);
        assert_eq!(serde_json::to_string(&oid).unwrap(), "\"507f1f77bcf86cd799439011\"");
        for bad in [
            r#"{"id":"507f1f77bcf86cd799439011"}"#,
            r#"{"$oid":5}"#,
            "{}",
            r#"{"$oid":"507f1f77bcf86cd799439011","x":1}"#,
        ] {
            let err = serde_json::from_str::<DeviceId>(bad).unwrap_err();
            assert!(err.to_string().starts_with(DEVICE_ID_MESSAGE), "{bad}: {err}");
        }
    }

    #[test]
    fn display_honours_width_and_debug_names_the_type() {
        let id = DeviceId::from_bytes([0; 12]);
        assert_eq!(format!("{id:>26}"), format!("  {}", "0".repeat(24)));
        assert_eq!(format!("{id:?}"), format!("DeviceId({})", "0".repeat(24)));
    }

    #[test]
    fn ids_made_on_several_threads_are_unique() {
        let threads: Vec<_> =
            (0..4).map(|_| std::thread::spawn(|| (0..2_500).map(|_| DeviceId::new()).collect::<Vec<_>>())).collect();
        let all: Vec<DeviceId> = threads.into_iter().flat_map(|t| t.join().unwrap()).collect();
        let distinct: HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), 10_000);
    }

    proptest! {
        #[test]
        fn any_burst_is_unique_and_sorted(size in 2usize..2_000) {
            let burst: Vec<DeviceId> = (0..size).map(|_| DeviceId::new()).collect();
            prop_assert!(burst.windows(2).all(|w| w[0] < w[1]));
        }

        #[test]
        fn display_round_trips(bytes in any::<[u8; 12]>()) {
            let id = DeviceId::from_bytes(bytes);
            prop_assert_eq!(DeviceId::parse(&id.to_string()).unwrap(), id);
            prop_assert_eq!(id.to_bytes(), bytes);
        }

        #[test]
        fn text_order_matches_byte_order(a in any::<[u8; 12]>(), b in any::<[u8; 12]>()) {
            let (a, b) = (DeviceId::from_bytes(a), DeviceId::from_bytes(b));
            prop_assert_eq!(a.cmp(&b), a.to_string().cmp(&b.to_string()));
        }

        #[test]
        fn never_panics(s in any::<String>()) {
            let _ = DeviceId::parse(&s);
        }
    }
}
