//! Phone numbers: exactly 10 ASCII digits.

use crate::newtype::validated_string;

/// Length of a phone number (spec §9).
pub const PHONE_NUMBER_LEN: usize = 10;

/// The gateway registration form's message (spec §5).
pub const PHONE_NUMBER_MESSAGE: &str = "Phone Number must be exactly 10 digits";

/// The gateway edit panel's message (spec §5 and §8): note the lower-case "number".
pub const EDIT_PHONE_NUMBER_MESSAGE: &str = "Phone number must be exactly 10 digits";

/// A gateway's phone number: exactly 10 ASCII digits, with no spaces,
/// separators or `+` country code.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PhoneNumber(String);

/// A string that is not a phone number.
///
/// Its `Display` is the registration form's wording, [`PHONE_NUMBER_MESSAGE`];
/// the edit panel (`PATCH`) uses [`PhoneNumberError::edit_message`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}", PHONE_NUMBER_MESSAGE)]
pub struct PhoneNumberError;

impl PhoneNumberError {
    /// The edit panel's wording, [`EDIT_PHONE_NUMBER_MESSAGE`].
    pub const fn edit_message(self) -> &'static str {
        EDIT_PHONE_NUMBER_MESSAGE
    }
}

impl PhoneNumber {
    /// Validates `s` exactly (no trimming).
    pub fn parse(s: &str) -> Result<Self, PhoneNumberError> {
        if s.len() == PHONE_NUMBER_LEN && s.bytes().all(|b| b.is_ascii_digit()) {
            Ok(Self(s.to_owned()))
        } else {
            Err(PhoneNumberError)
        }
    }
}

validated_string!(PhoneNumber, PhoneNumberError);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn accepts_ten_digits() {
        assert_eq!(PhoneNumber::parse("0612345678").unwrap().as_str(), "0612345678");
    }

    #[test]
    fn rejects_formatted_or_short_numbers() {
        for bad in ["", "061234567", "06 12 34 56 78", "+33612345678", "１２３４５６７８９０"] {
            assert_eq!(PhoneNumber::parse(bad), Err(PhoneNumberError), "{bad:?}");
        }
    }

    #[test]
    fn both_spec_wordings_are_available() {
        assert_eq!(PhoneNumberError.to_string(), "Phone Number must be exactly 10 digits");
        assert_eq!(PhoneNumberError.edit_message(), "Phone number must be exactly 10 digits");
    }

    proptest! {
        #[test]
        fn display_round_trips(s in "[0-9]{10}") {
            let phone = PhoneNumber::parse(&s).unwrap();
            prop_assert_eq!(PhoneNumber::parse(&format!("{phone}")).unwrap(), phone);
        }

        #[test]
        fn never_panics(s in any::<String>()) {
            let _ = PhoneNumber::parse(&s);
        }
    }
}
