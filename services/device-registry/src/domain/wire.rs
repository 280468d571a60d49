//! Between the domain's validated types and the event schema's plain ones.
//! Events were validated before they were written, so a value that does not
//! parse back means a corrupt or foreign event: it is refused, never
//! trusted.

use chrono::{DateTime, Utc};
use wm_domain::GpsCoordinates;
use wm_proto::{prost_types::Timestamp, v1};

/// An event field that breaks the schema's promises.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("event field {field} is invalid: {value:?}")]
pub struct InvalidEvent {
    pub field: &'static str,
    pub value: String,
}

pub(crate) fn parse<T: std::str::FromStr>(field: &'static str, value: &str) -> Result<T, InvalidEvent> {
    value.parse().map_err(|_| InvalidEvent { field, value: value.to_owned() })
}

pub(crate) fn gps(gps: GpsCoordinates) -> v1::GpsCoordinates {
    v1::GpsCoordinates { longitude: gps.longitude(), latitude: gps.latitude() }
}

pub(crate) fn coordinates(gps: &v1::GpsCoordinates) -> Result<GpsCoordinates, InvalidEvent> {
    GpsCoordinates::new(gps.longitude, gps.latitude)
        .map_err(|_| InvalidEvent { field: "gps", value: format!("{}, {}", gps.longitude, gps.latitude) })
}

pub(crate) fn time(field: &'static str, at: Option<&Timestamp>) -> Result<DateTime<Utc>, InvalidEvent> {
    at.and_then(wm_proto::time::to_datetime).ok_or_else(|| InvalidEvent { field, value: format!("{at:?}") })
}
