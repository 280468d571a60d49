//! Ids, validated value types and their exact spec messages.
//!
//! Every value that crosses the edge of a service is parsed once, here, into a
//! type that cannot hold an invalid value; inside the code nothing re-validates
//! a string. Each type offers `parse`, `FromStr`, `TryFrom<String>` and serde
//! impls that validate on read and write the canonical form.
//!
//! | type | rule | canonical form |
//! | --- | --- | --- |
//! | [`DeviceId`] | 24 hex digits, either case; JSON also `{"$oid": "…"}` | lower case |
//! | [`SerialNumber`] | exactly 10 ASCII alphanumerics | upper case |
//! | [`Imei`] | exactly 15 ASCII digits | as given |
//! | [`PhoneNumber`] | exactly 10 ASCII digits | as given |
//! | [`BleAddress`], [`MacAddress`] | `XX:XX:XX:XX:XX:XX`, either case | upper case |
//! | [`GpsCoordinates`] | `[lon, lat]` or `"lon,lat"`, in range | `[lon, lat]`, six decimals |
//!
//! Each error type's `Display` is the exact message of the spec (§5), and the
//! messages are also `pub const`s beside their types. Where a form words a
//! message differently, the error has a method for the other wording:
//! [`SerialNumberError::meter_message`], [`BleAddressError::meter_message`] and
//! [`PhoneNumberError::edit_message`].
//!
//! Parsing is exact: no type trims whitespace except [`GpsCoordinates`], whose
//! string form allows spaces around the numbers, and the search helper
//! [`normalize_loose`]. Parsers never panic on any input.
//!
//! The same rules are checked by the web client against the shared test
//! vectors in `tests/vectors/validation.json`.

mod address;
pub mod clock;
mod gps;
mod hex;
mod id;
mod imei;
mod kind;
mod newtype;
mod phone;
mod serial;
mod status;
mod valve;

pub use address::{
    ADDRESS_MESSAGE, BleAddress, BleAddressError, METER_BLE_ADDRESS_MESSAGE, MacAddress, MacAddressError,
    normalize_loose,
};
pub use clock::{Clock, ManualClock, SystemClock, iso_micros};
pub use gps::{GPS_DECIMALS, GPS_MESSAGE, GpsCoordinates, GpsError};
pub use id::{DEVICE_ID_LEN, DEVICE_ID_MESSAGE, DeviceId, DeviceIdError, OID_KEY};
pub use imei::{IMEI_LEN, IMEI_MESSAGE, Imei, ImeiError};
pub use kind::DeviceKind;
pub use phone::{EDIT_PHONE_NUMBER_MESSAGE, PHONE_NUMBER_LEN, PHONE_NUMBER_MESSAGE, PhoneNumber, PhoneNumberError};
pub use serial::{
    METER_SERIAL_NUMBER_MESSAGE, SERIAL_NUMBER_LEN, SERIAL_NUMBER_MESSAGE, SerialNumber, SerialNumberError,
};
pub use status::UnknownStatus;
pub use valve::ValveStatus;
