//! Query parameters and path segments, parsed once with clear errors.

use serde::Deserialize;
use utoipa::IntoParams;
use wm_domain::DeviceId;

use crate::{error::RegistryError, storage::lists::Page};

/// Page size when `max` is absent (spec §9).
pub const DEFAULT_MAX: i64 = 20;
/// The largest page (DESIGN §6).
pub const MAX_MAX: i64 = 500;

/// `max`, `start` and `reverse`, as sent; unknown parameters are ignored.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Devices per page, 1 to 500 (default 20).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 500, example = 20)]
    max: Option<String>,
    /// An ISO 8601 date or date-time: the registeredAt to page from.
    #[param(format = DateTime, example = "2025-01-31T23:59:59.999Z")]
    start: Option<String>,
    /// `true`: registered before `start`, newest first; `false`: at or after
    /// it, oldest first. Without `start`, the newest first.
    #[param(value_type = Option<bool>)]
    reverse: Option<String>,
}

impl ListQuery {
    pub fn page(&self) -> Result<Page, RegistryError> {
        let max = wm_http::params::max(self.max.as_deref(), DEFAULT_MAX, MAX_MAX).map_err(RegistryError::BadRequest)?;
        let start = self.start.as_deref().map(wm_http::params::start).transpose().map_err(RegistryError::BadRequest)?;
        let reverse = match self.reverse.as_deref() {
            None => false,
            Some("true") => true,
            Some("false") => false,
            Some(other) => {
                return Err(RegistryError::BadRequest(format!("reverse must be true or false, not {other:?}")));
            }
        };
        Ok(Page { max, start: start.map(|at| at.timestamp_micros()), reverse })
    }
}

/// A device id from the path.
pub fn device_id(s: &str) -> Result<DeviceId, RegistryError> {
    DeviceId::parse(s).map_err(|e| RegistryError::BadRequest(format!("{e}: {s:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(max: Option<&str>, start: Option<&str>, reverse: Option<&str>) -> ListQuery {
        ListQuery { max: max.map(Into::into), start: start.map(Into::into), reverse: reverse.map(Into::into) }
    }

    #[test]
    fn defaults_are_twenty_newest_first() {
        assert_eq!(query(None, None, None).page().unwrap(), Page { max: 20, start: None, reverse: false });
    }

    #[test]
    fn bad_values_are_refused() {
        for bad in [query(Some("100000"), None, None), query(Some("0"), None, None), query(Some("x"), None, None)] {
            assert!(matches!(bad.page(), Err(RegistryError::BadRequest(m)) if m.starts_with("max")));
        }
        assert!(query(None, Some("31/01/2025"), None).page().is_err());
        assert!(query(None, None, Some("yes")).page().is_err());
    }
}
