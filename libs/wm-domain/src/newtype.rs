//! The shared surface of the string-backed validated types.
//!
//! Each type defines its own `parse(&str) -> Result<Self, Error>` and keeps its
//! canonical form in a single `String` field; this macro adds the conversions,
//! `Display` and serde impls so that every type parses at the edge the same way.

/// Implements `as_str`, `into_string`, `Display`, `FromStr`, `TryFrom<String>`,
/// `TryFrom<&str>`, `AsRef<str>`, `From<T> for String` and serde for a
/// `struct T(String)` that has an inherent `parse`.
///
/// Serde writes the canonical string and validates on read, so a deserialize
/// error's message is the type's exact spec message.
macro_rules! validated_string {
    ($ty:ident, $err:ident) => {
        impl $ty {
            /// The canonical form.
            pub fn as_str(&self) -> &str {
                &self.0
            }

            /// The canonical form, by value.
            pub fn into_string(self) -> String {
                self.0
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.pad(&self.0)
            }
        }

        impl std::str::FromStr for $ty {
            type Err = $err;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Self::parse(s)
            }
        }

        impl TryFrom<String> for $ty {
            type Error = $err;

            fn try_from(s: String) -> Result<Self, Self::Error> {
                Self::parse(&s)
            }
        }

        impl TryFrom<&str> for $ty {
            type Error = $err;

            fn try_from(s: &str) -> Result<Self, Self::Error> {
                Self::parse(s)
            }
        }

        impl AsRef<str> for $ty {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl From<$ty> for String {
            fn from(value: $ty) -> Self {
                value.0
            }
        }

        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(&self.0)
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let raw = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                Self::parse(&raw).map_err(serde::de::Error::custom)
            }
        }
    };
}

pub(crate) use validated_string;
