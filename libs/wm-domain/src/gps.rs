//! GPS coordinates, longitude first, rounded to six decimals.

use std::fmt;
use std::str::FromStr;

use serde::de::{self, IgnoredAny, SeqAccess, Visitor};
use serde::ser::SerializeTuple;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Decimal places kept (spec §9).
pub const GPS_DECIMALS: usize = 6;

/// The message for malformed or out-of-range coordinates (spec §5).
pub const GPS_MESSAGE: &str = "Invalid GPS format. Use longitude,latitude";

const SCALE: f64 = 1e6;

/// A point: longitude in `-180..=180`, latitude in `-90..=90`, both finite and
/// rounded to six decimals on construction.
///
/// Reads a JSON array `[lon, lat]` or a `"lon,lat"` string; writes `[lon, lat]`.
/// `Display` gives `"lon, lat"` with six decimals, e.g. `2.352200, 48.856600`,
/// which parses back to the same value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GpsCoordinates {
    longitude: f64,
    latitude: f64,
}

/// Coordinates that do not parse or are out of range; `Display` is [`GPS_MESSAGE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}", GPS_MESSAGE)]
pub struct GpsError;

impl GpsCoordinates {
    /// Checks the ranges on the values as given, then rounds to six decimals.
    pub fn new(longitude: f64, latitude: f64) -> Result<Self, GpsError> {
        let in_range = (-180.0..=180.0).contains(&longitude) && (-90.0..=90.0).contains(&latitude);
        if !in_range {
            return Err(GpsError);
        }
        Ok(Self { longitude: round6(longitude), latitude: round6(latitude) })
    }

    /// Parses `"lon,lat"`: two decimal numbers (`-?[0-9]+(\.[0-9]+)?`), a comma,
    /// and optional ASCII whitespace around each number. No exponents, `+`,
    /// `NaN` or bare `.5`.
    pub fn parse(s: &str) -> Result<Self, GpsError> {
        let (longitude, latitude) = s.split_once(',').ok_or(GpsError)?;
        Self::new(decimal(longitude)?, decimal(latitude)?)
    }

    /// Degrees east.
    pub const fn longitude(&self) -> f64 {
        self.longitude
    }

    /// Degrees north.
    pub const fn latitude(&self) -> f64 {
        self.latitude
    }
}

/// Rounds to six decimals; `-0.0` becomes `0.0`.
fn round6(value: f64) -> f64 {
    (value * SCALE).round() / SCALE + 0.0
}

/// One number of the string form, surrounded by optional ASCII whitespace.
fn decimal(s: &str) -> Result<f64, GpsError> {
    let s = s.trim_matches(|c: char| c.is_ascii_whitespace());
    let unsigned = s.strip_prefix('-').unwrap_or(s);
    let (whole, fraction) = match unsigned.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (unsigned, None),
    };
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || fraction.is_some_and(|f| !digits(f)) {
        return Err(GpsError);
    }
    s.parse().map_err(|_| GpsError)
}

impl fmt::Display for GpsCoordinates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.6}, {:.6}", self.longitude, self.latitude)
    }
}

impl FromStr for GpsCoordinates {
    type Err = GpsError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl TryFrom<&str> for GpsCoordinates {
    type Error = GpsError;

    fn try_from(s: &str) -> Result<Self, Self::Error> {
        Self::parse(s)
    }
}

impl TryFrom<String> for GpsCoordinates {
    type Error = GpsError;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl TryFrom<[f64; 2]> for GpsCoordinates {
    type Error = GpsError;

    fn try_from([longitude, latitude]: [f64; 2]) -> Result<Self, Self::Error> {
        Self::new(longitude, latitude)
    }
}

impl From<GpsCoordinates> for [f64; 2] {
    fn from(gps: GpsCoordinates) -> Self {
        [gps.longitude, gps.latitude]
    }
}

impl Serialize for GpsCoordinates {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut pair = serializer.serialize_tuple(2)?;
        pair.serialize_element(&self.longitude)?;
        pair.serialize_element(&self.latitude)?;
        pair.end()
    }
}

impl<'de> Deserialize<'de> for GpsCoordinates {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(GpsVisitor)
    }
}

struct GpsVisitor;

impl<'de> Visitor<'de> for GpsVisitor {
    type Value = GpsCoordinates;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[longitude, latitude] or \"longitude,latitude\"")
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        GpsCoordinates::parse(s).map_err(E::custom)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut next = || match seq.next_element::<f64>() {
            Ok(Some(value)) => Ok(value),
            _ => Err(de::Error::custom(GpsError)),
        };
        let longitude = next()?;
        let latitude = next()?;
        if !matches!(seq.next_element::<IgnoredAny>(), Ok(None)) {
            return Err(de::Error::custom(GpsError));
        }
        GpsCoordinates::new(longitude, latitude).map_err(de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_the_string_form_with_optional_spaces() {
        // Given the same point typed three ways
        let typed = ["2.3522,48.8566", "2.3522, 48.8566", " 2.3522 ,\t48.8566 "];
        for s in typed {
            // When it is parsed
            let gps = GpsCoordinates::parse(s).unwrap();
            // Then longitude comes first
            assert_eq!((gps.longitude(), gps.latitude()), (2.3522, 48.8566), "{s:?}");
        }
    }

    #[test]
    fn rejects_malformed_and_out_of_range_input() {
        let bad = [
            "",
            "1",
            "--1,2",
            "1,2,3",
            "NaN,1",
            "inf,0",
            "1e2,3",
            "+1,2",
            ".5,1",
            "1.,2",
            "181,0",
            "0,90.5",
            "180.0000001,0",
        ];
        for s in bad {
            assert_eq!(GpsCoordinates::parse(s), Err(GpsError), "{s:?}");
        }
        assert_eq!(GpsCoordinates::new(f64::NAN, 0.0), Err(GpsError));
        assert_eq!(GpsCoordinates::new(0.0, f64::INFINITY), Err(GpsError));
        assert_eq!(GpsError.to_string(), "Invalid GPS format. Use longitude,latitude");
    }

    #[test]
    fn rounds_to_six_decimals_and_drops_negative_zero() {
        let gps = GpsCoordinates::new(1.123_456_7, -0.000_000_1).unwrap();
        assert_eq!(<[f64; 2]>::from(gps), [1.123_457, 0.0]);
        assert_eq!(gps.to_string(), "1.123457, 0.000000");
    }

    #[test]
    fn displays_six_decimals_longitude_first() {
        let gps = GpsCoordinates::new(2.3522, 48.8566).unwrap();
        assert_eq!(gps.to_string(), "2.352200, 48.856600");
    }

    #[test]
    fn serde_reads_array_or_string_and_writes_an_array() {
        let from_array: GpsCoordinates = serde_json::from_str("[2.3522, 48.8566]").unwrap();
        let from_string: GpsCoordinates = serde_json::from_str("\"2.3522,48.8566\"").unwrap();
        assert_eq!(from_array, from_string);
        assert_eq!(serde_json::to_string(&from_array).unwrap(), "[2.3522,48.8566]");
        for bad in ["[1]", "[1,2,3]", "[\"1\",\"2\"]", "[200,0]", "\"1;2\""] {
            let err = serde_json::from_str::<GpsCoordinates>(bad).unwrap_err();
            assert!(err.to_string().starts_with(GPS_MESSAGE), "{bad}: {err}");
        }
    }

    proptest! {
        #[test]
        fn display_round_trips(lon in -180.0f64..=180.0, lat in -90.0f64..=90.0) {
            let gps = GpsCoordinates::new(lon, lat).unwrap();
            prop_assert_eq!(GpsCoordinates::parse(&gps.to_string()).unwrap(), gps);
        }

        #[test]
        fn serde_round_trips(lon in -180.0f64..=180.0, lat in -90.0f64..=90.0) {
            let gps = GpsCoordinates::new(lon, lat).unwrap();
            let json = serde_json::to_string(&gps).unwrap();
            prop_assert_eq!(serde_json::from_str::<GpsCoordinates>(&json).unwrap(), gps);
        }

        #[test]
        fn never_panics(s in any::<String>(), lon in any::<f64>(), lat in any::<f64>()) {
            let _ = GpsCoordinates::parse(&s);
            let _ = GpsCoordinates::new(lon, lat);
        }

        #[test]
        fn never_panics_on_near_misses(s in "[-+ .,0-9eNaIinf]{0,24}") {
            let _ = GpsCoordinates::parse(&s);
        }
    }
}
