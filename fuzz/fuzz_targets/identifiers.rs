//! Every identifier parser on any text: no panic, and what parses prints
//! back to text that parses to the same value.

#![no_main]

use libfuzzer_sys::fuzz_target;
use wm_domain::{BleAddress, DeviceId, DeviceKind, GpsCoordinates, Imei, MacAddress, PhoneNumber, SerialNumber};

macro_rules! round_trips {
    ($text:expr, $($parse:path),+ $(,)?) => {
        $(
            if let Ok(value) = $parse($text) {
                assert_eq!($parse(&value.to_string()).ok(), Some(value), "{:?}", $text);
            }
        )+
    };
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    round_trips!(
        text,
        DeviceId::parse,
        SerialNumber::parse,
        Imei::parse,
        PhoneNumber::parse,
        BleAddress::parse,
        MacAddress::parse,
        GpsCoordinates::parse,
    );
    for kind in [DeviceKind::Gateway, DeviceKind::Meter] {
        if let Ok(serial) = SerialNumber::parse_with_prefix(text, kind) {
            assert_eq!(SerialNumber::parse(serial.as_str()).ok(), Some(serial), "{text:?}");
        }
    }
});
