//! BLE and MAC addresses: six hex pairs separated by colons.
//!
//! Both types share one parser; the canonical form is upper case with colons,
//! e.g. `00:1A:7D:DA:71:13`.

use std::fmt::Write as _;

use crate::hex;
use crate::newtype::validated_string;

/// The gateway registration form's message, for both BLE and MAC addresses (spec §5).
pub const ADDRESS_MESSAGE: &str = "Must be in format XX:XX:XX:XX:XX:XX";

/// The water meter registration form's message for a BLE address (spec §5).
pub const METER_BLE_ADDRESS_MESSAGE: &str = "BLE Address must be in format XX:XX:XX:XX:XX:XX";

/// A Bluetooth Low Energy address, canonically `XX:XX:XX:XX:XX:XX` in upper case.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BleAddress(String);

/// A string that is not a BLE address.
///
/// Its `Display` is the gateway form's wording, [`ADDRESS_MESSAGE`]; the meter
/// form uses [`BleAddressError::meter_message`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}", ADDRESS_MESSAGE)]
pub struct BleAddressError;

impl BleAddressError {
    /// The water meter form's wording, [`METER_BLE_ADDRESS_MESSAGE`].
    pub const fn meter_message(self) -> &'static str {
        METER_BLE_ADDRESS_MESSAGE
    }
}

/// A gateway's MAC address, canonically `XX:XX:XX:XX:XX:XX` in upper case.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MacAddress(String);

/// A string that is not a MAC address; `Display` is [`ADDRESS_MESSAGE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}", ADDRESS_MESSAGE)]
pub struct MacAddressError;

impl BleAddress {
    /// Validates `s` exactly (no trimming, colons required, either case).
    pub fn parse(s: &str) -> Result<Self, BleAddressError> {
        parse_canonical(s).map(Self).ok_or(BleAddressError)
    }
}

impl MacAddress {
    /// Validates `s` exactly (no trimming, colons required, either case).
    pub fn parse(s: &str) -> Result<Self, MacAddressError> {
        parse_canonical(s).map(Self).ok_or(MacAddressError)
    }
}

validated_string!(BleAddress, BleAddressError);
validated_string!(MacAddress, MacAddressError);

/// Normalizes a full address typed loosely, for search: surrounding
/// whitespace is ignored, colons are optional (all five or none) and either
/// case is accepted. Returns the canonical form, or `None`.
///
/// ```
/// use wm_domain::normalize_loose;
/// assert_eq!(normalize_loose(" 001a7dda7113 ").as_deref(), Some("00:1A:7D:DA:71:13"));
/// assert_eq!(normalize_loose("00:1a:7d:da:71:13").as_deref(), Some("00:1A:7D:DA:71:13"));
/// assert_eq!(normalize_loose("00:1a7dda7113"), None);
/// ```
pub fn normalize_loose(s: &str) -> Option<String> {
    let s = s.trim();
    octets(s, true).or_else(|| octets(s, false)).map(canonical)
}

fn parse_canonical(s: &str) -> Option<String> {
    octets(s, true).map(canonical)
}

/// The six bytes of `s`, written as hex pairs with or without colons between.
fn octets(s: &str, with_colons: bool) -> Option<[u8; 6]> {
    let bytes = s.as_bytes();
    let (stride, len) = if with_colons { (3, 17) } else { (2, 12) };
    if bytes.len() != len {
        return None;
    }
    let mut out = [0u8; 6];
    for (i, octet) in out.iter_mut().enumerate() {
        let at = i * stride;
        if with_colons && i > 0 && bytes.get(at - 1) != Some(&b':') {
            return None;
        }
        *octet = hex::byte(*bytes.get(at)?, *bytes.get(at + 1)?)?;
    }
    Some(out)
}

fn canonical(octets: [u8; 6]) -> String {
    let mut out = String::with_capacity(17);
    for (i, octet) in octets.iter().enumerate() {
        if i > 0 {
            out.push(':');
        }
        let _ = write!(out, "{octet:02X}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn accepts_either_case_and_upper_cases() {
        // Given a lower-case address
        // When it is parsed as a BLE and as a MAC address
        let ble = BleAddress::parse("00:1a:7d:da:71:13").unwrap();
        let mac = MacAddress::parse("00:1a:7d:da:71:13").unwrap();
        // Then both keep the upper-case canonical form
        assert_eq!(ble.as_str(), "00:1A:7D:DA:71:13");
        assert_eq!(mac.as_str(), "00:1A:7D:DA:71:13");
    }

    #[test]
    fn strict_parse_requires_colons_in_place() {
        for bad in [
            "",
            "001A7DDA7113",
            "00-1A-7D-DA-71-13",
            "00:1A:7D:DA:71",
            "00:1A:7D:DA:71:13:00",
            "001A:7D:DA:71:13:",
            "00:1A:7D:DA:71:1G",
            " 00:1A:7D:DA:71:13",
        ] {
            assert_eq!(BleAddress::parse(bad), Err(BleAddressError), "{bad:?}");
            assert_eq!(MacAddress::parse(bad), Err(MacAddressError), "{bad:?}");
        }
    }

    #[test]
    fn messages_match_the_spec() {
        assert_eq!(BleAddressError.to_string(), "Must be in format XX:XX:XX:XX:XX:XX");
        assert_eq!(MacAddressError.to_string(), "Must be in format XX:XX:XX:XX:XX:XX");
        assert_eq!(BleAddressError.meter_message(), "BLE Address must be in format XX:XX:XX:XX:XX:XX");
    }

    #[test]
    fn loose_normalization_accepts_missing_colons_only_all_or_nothing() {
        assert_eq!(normalize_loose("aabbccddeeff").as_deref(), Some("AA:BB:CC:DD:EE:FF"));
        assert_eq!(normalize_loose("\tAA:bb:CC:dd:EE:ff\n").as_deref(), Some("AA:BB:CC:DD:EE:FF"));
        assert_eq!(normalize_loose("AA:BBCCDDEEFF"), None);
        assert_eq!(normalize_loose("aabbccddeef"), None);
        assert_eq!(normalize_loose(""), None);
    }

    proptest! {
        #[test]
        fn display_round_trips(s in "[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}") {
            let ble = BleAddress::parse(&s).unwrap();
            prop_assert_eq!(BleAddress::parse(&format!("{ble}")).unwrap(), ble);
            let mac = MacAddress::parse(&s).unwrap();
            prop_assert_eq!(MacAddress::parse(&format!("{mac}")).unwrap(), mac);
        }

        #[test]
        fn loose_form_agrees_with_strict_form(s in "[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}") {
            let strict = BleAddress::parse(&s).unwrap().into_string();
            prop_assert_eq!(normalize_loose(&s.replace(':', "")), Some(strict));
        }

        #[test]
        fn never_panics(s in any::<String>()) {
            let _ = BleAddress::parse(&s);
            let _ = MacAddress::parse(&s);
            let _ = normalize_loose(&s);
        }
    }
}
