//! A meter's own thresholds for the leak detectors (docs/analytics.md):
//! read by anyone signed in, set by operators and admins, audited.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use wm_domain::iso_micros;
use wm_http::{ApiError, JsonObject, auth::Caller};

use super::params::id_of;
use crate::{
    actions,
    domain::{
        detect::Thresholds,
        thresholds::{Field, Overrides, ThresholdError},
    },
    error::IngestError,
    settings::millilitres,
    state::IngestState,
    storage::{
        alarm_views::{self, Actor},
        directory, thresholds,
    },
};

/// Thresholds as the API writes them; a `null` follows the default.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ThresholdValues {
    /// Hours in a row with consumption that raise `continuous-flow`.
    continuous_flow_hours: Option<u32>,
    /// `night-flow`: the lowest hour between 02:00 and 05:00 above this many litres.
    night_flow_litres_per_hour: Option<f64>,
    /// `burst`: an hour above this many litres.
    burst_litres_per_hour: Option<f64>,
    /// `stuck-meter`: days in a row without consumption while heard.
    stuck_meter_days: Option<u32>,
}

/// A meter's own thresholds, whole: a `null` or absent one follows the default.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ThresholdBody {
    /// Hours in a row with consumption that raise `continuous-flow`, 2 to 168.
    #[serde(default)]
    #[schema(value_type = Option<u32>, minimum = 2, maximum = 168)]
    continuous_flow_hours: Option<f64>,
    /// `night-flow`: the lowest hour between 02:00 and 05:00 above this many
    /// litres, 0.001 to 1000000.
    #[serde(default)]
    #[schema(minimum = 0.001, maximum = 1000000)]
    night_flow_litres_per_hour: Option<f64>,
    /// `burst`: an hour above this many litres, 0.001 to 1000000.
    #[serde(default)]
    #[schema(minimum = 0.001, maximum = 1000000)]
    burst_litres_per_hour: Option<f64>,
    /// `stuck-meter`: days in a row without consumption while heard, 1 to 365.
    #[serde(default)]
    #[schema(value_type = Option<u32>, minimum = 1, maximum = 365)]
    stuck_meter_days: Option<f64>,
}

const LITRE: f64 = 1000.0;

/// A whole number (`143.0` is one); otherwise out of `field`'s range.
fn whole(value: Option<f64>, field: Field) -> Result<Option<u32>, ThresholdError> {
    value
        .map(|v| {
            let whole = v.is_finite() && v.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&v);
            if whole { Ok(v as u32) } else { Err(ThresholdError::OutOfRange(field)) }
        })
        .transpose()
}

impl ThresholdBody {
    fn overrides(&self) -> Result<Overrides, ThresholdError> {
        Ok(Overrides {
            continuous_flow_hours: whole(self.continuous_flow_hours, Field::ContinuousFlowHours)?,
            night_flow_ml: self.night_flow_litres_per_hour.map(millilitres),
            burst_ml: self.burst_litres_per_hour.map(millilitres),
            stuck_days: whole(self.stuck_meter_days, Field::StuckDays)?,
        })
    }
}

impl ThresholdValues {
    fn of(o: &Overrides) -> Self {
        ThresholdValues {
            continuous_flow_hours: o.continuous_flow_hours,
            night_flow_litres_per_hour: o.night_flow_ml.map(|ml| ml as f64 / LITRE),
            burst_litres_per_hour: o.burst_ml.map(|ml| ml as f64 / LITRE),
            stuck_meter_days: o.stuck_days,
        }
    }

    fn all(t: &Thresholds) -> Self {
        let o = Overrides {
            continuous_flow_hours: Some(t.continuous_flow_hours),
            night_flow_ml: Some(t.night_flow_ml),
            burst_ml: Some(t.burst_ml),
            stuck_days: Some(t.stuck_days),
        };
        Self::of(&o)
    }
}

/// A meter's thresholds: its own, the network's defaults, and those its
/// detectors use.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MeterThresholds {
    meter_id: String,
    own: ThresholdValues,
    defaults: ThresholdValues,
    effective: ThresholdValues,
    /// Who last set the meter's own thresholds, and when.
    updated_by: Option<Actor>,
    updated_at: Option<String>,
}

async fn view(state: &IngestState, meter_id: &str) -> Result<MeterThresholds, IngestError> {
    if !directory::is_meter(&state.db, meter_id).await? {
        return Err(ThresholdError::UnknownMeter.into());
    }
    let set = thresholds::read(&state.db, meter_id).await?;
    let updated_by = match &set {
        Some(set) => Some(alarm_views::actor(&state.db, &set.by).await?),
        None => None,
    };
    let own = set.as_ref().map(|s| s.overrides).unwrap_or_default();
    let defaults = state.analytics.detectors.thresholds();
    Ok(MeterThresholds {
        meter_id: meter_id.to_owned(),
        own: ThresholdValues::of(&own),
        defaults: ThresholdValues::all(&defaults),
        effective: ThresholdValues::all(&own.over(defaults)),
        updated_by,
        updated_at: set.map(|s| iso_micros(s.at.timestamp_micros())),
    })
}

fn meter(id: &str) -> Result<String, IngestError> {
    id_of(id).map_err(|e| IngestError::Invalid { field: "id", message: e.to_string() })
}

/// A meter's leak-detector thresholds: its own, the defaults, and those in force.
#[utoipa::path(get, path = "/api/thresholds/{id}", tag = "analytics",
    params(("id" = String, Path, description = "The meter's id", pattern = "^[0-9a-fA-F]{24}$")),
    responses((status = 200, body = MeterThresholds), (status = 404, body = ApiError)), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn get(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(view(&state, &meter(&id)?).await?))
}

/// Set a meter's own thresholds; a `null` or absent one follows the network's default.
#[utoipa::path(put, path = "/api/thresholds/{id}", tag = "analytics",
    params(("id" = String, Path, description = "The meter's id", pattern = "^[0-9a-fA-F]{24}$")),
    request_body = ThresholdBody,
    responses(
        (status = 200, body = MeterThresholds),
        (status = 400, description = "A threshold out of range, named in `fields`", body = ApiError),
        (status = 403, description = "A viewer may not set thresholds", body = ApiError),
        (status = 404, body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn put(
    caller: Caller,
    state: web::Data<IngestState>,
    id: web::Path<String>,
    body: JsonObject<ThresholdBody>,
) -> Result<HttpResponse, ApiError> {
    let attempt = IngestState::attempt(&caller, "meter.thresholds").on(&id);
    let result = async {
        caller.may_change_devices()?;
        let id = meter(&id)?;
        let overrides = body.overrides().map_err(IngestError::from)?;
        actions::thresholds::set(&state, &attempt, &caller.user_id, &id, overrides).await?;
        Ok(HttpResponse::Ok().json(view(&state, &id).await?))
    };
    state.audited(&attempt, result.await).await
}
