//! Consumption series from the rollups (docs/analytics.md): a meter's, a
//! gateway's or the network's consumption per hour, day or month over a
//! range, every bucket present (an empty one holds zero).

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use wm_http::{ApiError, auth::Caller};

use super::params::id_of;
use crate::{
    domain::rollup::{Bucket, HOUR_US, bucket_of, bucket_starts},
    error::IngestError,
    state::IngestState,
    storage::{
        reads::iso,
        rollups::{self, Kept, Scope},
    },
};

const DAY_US: i64 = 24 * HOUR_US;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SeriesQuery {
    /// A meter's id: its consumption (hourly buckets are kept per meter only).
    #[param(pattern = "^[0-9a-fA-F]{24}$")]
    meter: Option<String>,
    /// A gateway's id: the consumption it relayed. Neither: the network's.
    #[param(pattern = "^[0-9a-fA-F]{24}$")]
    gateway: Option<String>,
    /// `hour` (at most 31 days), `day` (at most 732 days) or `month` (at
    /// most 10 years); `day` by default.
    #[param(pattern = "^(hour|day|month)?$")]
    bucket: Option<String>,
    /// The range's start (ISO 8601 date or date-time); by default 30 days before `to`.
    #[param(format = DateTime)]
    from: Option<String>,
    /// The range's end, excluded (ISO 8601); by default now.
    #[param(format = DateTime)]
    to: Option<String>,
    /// The time zone the days and months are in: the network's
    /// (`analytics.time_zone`), which is the default. Hours are UTC hours.
    #[param(example = "Europe/Paris")]
    tz: Option<String>,
}

/// One bucket of a series.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeriesPoint {
    /// The bucket's first instant.
    start: String,
    /// Millilitres consumed in it.
    volume_ml: i64,
    /// How many consumption records made it.
    readings: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Series {
    /// `meter`, `gateway` or `network`.
    scope: &'static str,
    bucket: &'static str,
    time_zone: String,
    from: String,
    to: String,
    total_ml: i64,
    points: Vec<SeriesPoint>,
}

fn invalid(field: &'static str, message: impl Into<String>) -> IngestError {
    IngestError::Invalid { field, message: message.into() }
}

/// A `from` or `to`: a parameter with a format takes no empty value.
fn time(field: &'static str, value: Option<&str>) -> Result<Option<i64>, IngestError> {
    value
        .map(str::trim)
        .map(|v| wm_http::params::start(v).map(|at| at.timestamp_micros()).map_err(|message| invalid(field, message)))
        .transpose()
}

/// The bucket, and the longest range it may span.
fn bucket(value: Option<&str>) -> Result<(Bucket, &'static str, i64), IngestError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        Some("hour") => Ok((Bucket::Hour, "hour", 31 * DAY_US)),
        None | Some("day") => Ok((Bucket::Day, "day", 732 * DAY_US)),
        Some("month") => Ok((Bucket::Month, "month", 3_653 * DAY_US)),
        Some(other) => Err(invalid("bucket", format!("{other:?} is not one of hour, day, month"))),
    }
}

impl SeriesQuery {
    fn scope(&self) -> Result<(Scope, &'static str), IngestError> {
        let id = |field: &'static str, value: &str| id_of(value).map_err(|e| invalid(field, e.to_string()));
        match (&self.meter, &self.gateway) {
            (Some(_), Some(_)) => Err(invalid("gateway", "give a meter or a gateway, not both")),
            (Some(meter), None) => Ok((Scope::Meter(id("meter", meter)?), "meter")),
            (None, Some(gateway)) => Ok((Scope::Gateway(id("gateway", gateway)?), "gateway")),
            (None, None) => Ok((Scope::Network, "network")),
        }
    }
}

/// Consumption per hour, day or month of a meter, a gateway or the network.
#[utoipa::path(get, path = "/api/rollups", tag = "analytics", params(SeriesQuery),
    responses((status = 200, body = Series),
        (status = 400, description = "A bad or too long range, an unknown bucket or time zone, named in `fields`", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn series(
    caller: Caller,
    state: web::Data<IngestState>,
    query: web::Query<SeriesQuery>,
) -> Result<HttpResponse, ApiError> {
    let (scope, scope_name) = query.scope()?;
    let (bucket, bucket_name, longest) = bucket(query.bucket.as_deref())?;
    let tz = state.analytics.tz();
    if let Some(asked) = query.tz.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        let asked: chrono_tz::Tz = asked
            .parse()
            .map_err(|_| invalid("tz", format!("{asked:?} is not an IANA time zone, e.g. Europe/Paris")))?;
        if asked != tz && bucket != Bucket::Hour {
            let message =
                format!("days and months are kept in the network's time zone, {tz}; ask for {tz} or for hours");
            return Err(invalid("tz", message).into());
        }
    }
    let to = time("to", query.to.as_deref())?.unwrap_or_else(|| state.now().timestamp_micros());
    let from = time("from", query.from.as_deref())?.unwrap_or(to - 30 * DAY_US);
    if from >= to {
        return Err(invalid("from", "must be before to").into());
    }
    if to - from > longest {
        let message = format!("the range is too long for {bucket_name} buckets: at most {} days", longest / DAY_US);
        return Err(invalid("to", message).into());
    }
    let kept = if bucket == Bucket::Hour { Kept::Hourly } else { Kept::Daily };
    let starts = bucket_starts(bucket, from, to, tz);
    let first = starts.first().copied().unwrap_or(from);
    let rows = rollups::series(&state.db, &scope, kept, first, to)
        .await?
        .ok_or_else(|| invalid("bucket", "hourly buckets are kept per meter only; ask for day or month"))?;
    let mut points: Vec<SeriesPoint> =
        starts.iter().map(|start| SeriesPoint { start: iso(*start), volume_ml: 0, readings: 0 }).collect();
    for (start, volume_ml, readings) in rows {
        let at = bucket_of(bucket, start, tz);
        if let Ok(i) = starts.binary_search(&at) {
            points[i].volume_ml += volume_ml;
            points[i].readings += readings;
        }
    }
    Ok(HttpResponse::Ok().json(Series {
        scope: scope_name,
        bucket: bucket_name,
        time_zone: tz.to_string(),
        from: iso(from),
        to: iso(to),
        total_ml: points.iter().map(|p| p.volume_ml).sum(),
        points,
    }))
}
