//! Serial numbers: exactly 10 ASCII alphanumerics, upper case when canonical.

use crate::DeviceKind;
use crate::newtype::validated_string;

/// Length of a serial number (spec §9).
pub const SERIAL_NUMBER_LEN: usize = 10;

/// The gateway registration form's message (spec §5).
pub const SERIAL_NUMBER_MESSAGE: &str = "Must be exactly 10 alphanumeric characters";

/// The water meter registration form's message (spec §5).
pub const METER_SERIAL_NUMBER_MESSAGE: &str = "Serial Number must be exactly 10 alphanumeric characters";

/// A device serial number: exactly 10 ASCII letters or digits.
///
/// Input may be in any case; the canonical form is upper case.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SerialNumber(String);

/// A string that is not a serial number.
///
/// Its `Display` is the gateway form's wording, [`SERIAL_NUMBER_MESSAGE`];
/// the meter form uses [`SerialNumberError::meter_message`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}", SERIAL_NUMBER_MESSAGE)]
pub struct SerialNumberError;

impl SerialNumberError {
    /// The water meter form's wording, [`METER_SERIAL_NUMBER_MESSAGE`].
    pub const fn meter_message(self) -> &'static str {
        METER_SERIAL_NUMBER_MESSAGE
    }
}

impl SerialNumber {
    /// Validates `s` exactly (no trimming) and upper-cases it.
    pub fn parse(s: &str) -> Result<Self, SerialNumberError> {
        let valid = s.len() == SERIAL_NUMBER_LEN && s.bytes().all(|b| b.is_ascii_alphanumeric());
        if valid { Ok(Self(s.to_ascii_uppercase())) } else { Err(SerialNumberError) }
    }

    /// Like [`parse`](Self::parse), but first strips the kind's display prefix
    /// (`GTW-` or `W-`, any case) when present, as in `GET …/serial/{serial}`.
    pub fn parse_with_prefix(s: &str, kind: DeviceKind) -> Result<Self, SerialNumberError> {
        Self::parse(kind.strip_prefix(s))
    }
}

validated_string!(SerialNumber, SerialNumberError);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn accepts_ten_alphanumerics_in_any_case_and_upper_cases_them() {
        // Given a mixed-case serial
        // When it is parsed
        let serial = SerialNumber::parse("abcDEF0123").unwrap();
        // Then the canonical form is upper case
        assert_eq!(serial.as_str(), "ABCDEF0123");
    }

    #[test]
    fn rejects_wrong_lengths_and_other_characters() {
        for bad in ["", "ABC123456", "ABC12345678", "ABC-123456", " ABC123456", "１２３４５６７８９０"] {
            assert_eq!(SerialNumber::parse(bad), Err(SerialNumberError), "{bad:?}");
        }
    }

    #[test]
    fn messages_match_the_spec() {
        assert_eq!(SerialNumberError.to_string(), "Must be exactly 10 alphanumeric characters");
        assert_eq!(SerialNumberError.meter_message(), "Serial Number must be exactly 10 alphanumeric characters");
    }

    #[test]
    fn parse_with_prefix_strips_only_the_kind_prefix() {
        let gateway = SerialNumber::parse_with_prefix("gtw-abc1234567", DeviceKind::Gateway);
        assert_eq!(gateway.unwrap().as_str(), "ABC1234567");
        let meter = SerialNumber::parse_with_prefix("W-ABC1234567", DeviceKind::Meter);
        assert_eq!(meter.unwrap().as_str(), "ABC1234567");
        let bare = SerialNumber::parse_with_prefix("ABC1234567", DeviceKind::Meter);
        assert_eq!(bare.unwrap().as_str(), "ABC1234567");
        let wrong = SerialNumber::parse_with_prefix("GTW-ABC1234567", DeviceKind::Meter);
        assert_eq!(wrong, Err(SerialNumberError));
    }

    #[test]
    fn serde_writes_the_canonical_string_and_validates_on_read() {
        let serial: SerialNumber = serde_json::from_str("\"abc1234567\"").unwrap();
        assert_eq!(serde_json::to_string(&serial).unwrap(), "\"ABC1234567\"");
        let err = serde_json::from_str::<SerialNumber>("\"abc\"").unwrap_err();
        assert!(err.to_string().starts_with(SERIAL_NUMBER_MESSAGE), "{err}");
    }

    proptest! {
        #[test]
        fn display_round_trips(s in "[0-9A-Za-z]{10}") {
            let serial = SerialNumber::parse(&s).unwrap();
            prop_assert_eq!(SerialNumber::parse(&format!("{serial}")).unwrap(), serial);
        }

        #[test]
        fn never_panics(s in any::<String>()) {
            let _ = SerialNumber::parse(&s);
            let _ = SerialNumber::parse_with_prefix(&s, DeviceKind::Gateway);
            let _ = SerialNumber::parse_with_prefix(&s, DeviceKind::Meter);
        }
    }
}
