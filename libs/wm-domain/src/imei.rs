//! IMEIs: exactly 15 ASCII digits.

use crate::newtype::validated_string;

/// Length of an IMEI (spec §9).
pub const IMEI_LEN: usize = 15;

/// The gateway registration form's message (spec §5).
pub const IMEI_MESSAGE: &str = "IMEI must be exactly 15 digits";

/// A gateway modem's IMEI: exactly 15 ASCII digits.
///
/// The spec asks for the length only, so the Luhn check digit is not verified.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Imei(String);

/// A string that is not an IMEI; `Display` is [`IMEI_MESSAGE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}", IMEI_MESSAGE)]
pub struct ImeiError;

impl Imei {
    /// Validates `s` exactly (no trimming).
    pub fn parse(s: &str) -> Result<Self, ImeiError> {
        if s.len() == IMEI_LEN && s.bytes().all(|b| b.is_ascii_digit()) {
            Ok(Self(s.to_owned()))
        } else {
            Err(ImeiError)
        }
    }
}

validated_string!(Imei, ImeiError);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn accepts_fifteen_digits() {
        assert_eq!(Imei::parse("490154203237518").unwrap().as_str(), "490154203237518");
    }

    #[test]
    fn rejects_anything_else_with_the_spec_message() {
        for bad in ["", "12345678901234", "1234567890123456", "12345678901234a", "１２３４５６７８９０１２３４５"]
        {
            let err = Imei::parse(bad).unwrap_err();
            assert_eq!(err.to_string(), "IMEI must be exactly 15 digits", "{bad:?}");
        }
    }

    proptest! {
        #[test]
        fn display_round_trips(s in "[0-9]{15}") {
            let imei = Imei::parse(&s).unwrap();
            prop_assert_eq!(Imei::parse(&format!("{imei}")).unwrap(), imei);
        }

        #[test]
        fn never_panics(s in any::<String>()) {
            let _ = Imei::parse(&s);
        }
    }
}
