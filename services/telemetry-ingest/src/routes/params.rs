//! Query parameters of the telemetry lists.

use serde::Deserialize;
use utoipa::IntoParams;
use wm_domain::DeviceId;

use crate::{error::IngestError, storage::reads::Slice};

/// Rows per page when `max` is absent, and at most.
const DEFAULT_MAX: i64 = 20;
const MAX_MAX: i64 = 500;

/// `max`, `start` and the optional other device of a telemetry list.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Rows per page, 1 to 500 (default 20).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 500, example = 50)]
    max: Option<String>,
    /// Only rows older than this ISO 8601 date or date-time (the oldest
    /// timestamp already shown).
    #[param(format = DateTime)]
    start: Option<String>,
    /// On a gateway's list: only this meter's rows.
    #[param(pattern = "^[0-9a-fA-F]{24}$")]
    meter_id: Option<String>,
    /// On a meter's list: only this gateway's rows.
    #[param(pattern = "^[0-9a-fA-F]{24}$")]
    gateway_id: Option<String>,
}

impl ListQuery {
    /// The slice of rows asked for; `device` filters by the path's device.
    pub fn slice(&self, device: Option<(&'static str, &str)>) -> Result<Slice, IngestError> {
        let max = wm_http::params::max(self.max.as_deref(), DEFAULT_MAX, MAX_MAX).map_err(IngestError::BadRequest)?;
        let before = self
            .start
            .as_deref()
            .map(wm_http::params::start)
            .transpose()
            .map_err(IngestError::BadRequest)?
            .map(|at| at.timestamp_micros());
        let mut equal = Vec::new();
        if let Some((column, id)) = device {
            equal.push((column, id_of(id)?));
        }
        if let Some(meter) = &self.meter_id {
            equal.push(("meter_id", id_of(meter)?));
        }
        if let Some(gateway) = &self.gateway_id {
            equal.push(("gateway_id", id_of(gateway)?));
        }
        Ok(Slice { equal, before, max })
    }

    /// [`ListQuery::slice`] of a gateway's peripheral discoveries, which
    /// name no meter: a `meterId` filter is refused.
    pub fn discoveries_of(&self, gateway_id: &str) -> Result<Slice, IngestError> {
        if self.meter_id.is_some() {
            return Err(IngestError::BadRequest(
                "meterId does not apply to peripheral discoveries: they name no meter".to_owned(),
            ));
        }
        self.slice(Some(("gateway_id", gateway_id)))
    }
}

/// A device id, canonical (lower case).
pub fn id_of(s: &str) -> Result<String, IngestError> {
    DeviceId::parse(s).map(|id| id.to_string()).map_err(|e| IngestError::BadRequest(format!("{e}: {s:?}")))
}
