//! Consumption series from the rollups (docs/analytics.md): a meter's, a
//! gateway's or the network's consumption per hour, day or month over a
//! range, every bucket present (an empty one holds zero); and the meters
//! that used the most lately.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use wm_domain::iso_micros;
use wm_http::{ApiError, auth::Caller};

use super::{
    params::id_of,
    range::{DAY_US, invalid, range},
};
use crate::{
    domain::rollup::{Bucket, bucket_of, bucket_starts, day_start, next_bucket},
    error::IngestError,
    state::IngestState,
    storage::rollups::{self, Kept, Scope},
};

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
    pub start: String,
    /// The next bucket's first instant.
    pub end: String,
    /// Millilitres consumed in it.
    pub volume_ml: i64,
    /// How many consumption records made it.
    pub readings: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Series {
    /// `meter`, `gateway` or `network`.
    pub scope: &'static str,
    pub bucket: &'static str,
    pub time_zone: String,
    pub from: String,
    pub to: String,
    pub total_ml: i64,
    pub points: Vec<SeriesPoint>,
}

/// The bucket, and the longest range it may span.
fn bucket(value: Option<&str>) -> Result<(Bucket, &'static str, i64), IngestError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        Some("hour") => Ok((Bucket::Hour, "hour", 31)),
        None | Some("day") => Ok((Bucket::Day, "day", 732)),
        Some("month") => Ok((Bucket::Month, "month", 3_653)),
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

impl SeriesQuery {
    /// The series asked for, every bucket present.
    pub async fn series(&self, state: &IngestState) -> Result<Series, IngestError> {
        let (scope, scope_name) = self.scope()?;
        let (bucket, bucket_name, longest) = bucket(self.bucket.as_deref())?;
        let tz = state.analytics.tz();
        if let Some(asked) = self.tz.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
            let asked: chrono_tz::Tz = asked
                .parse()
                .map_err(|_| invalid("tz", format!("{asked:?} is not an IANA time zone, e.g. Europe/Paris")))?;
            if asked != tz && bucket != Bucket::Hour {
                let message =
                    format!("days and months are kept in the network's time zone, {tz}; ask for {tz} or for hours");
                return Err(invalid("tz", message));
            }
        }
        let what = format!("{bucket_name} buckets");
        let (from, to) =
            range((self.from.as_deref(), self.to.as_deref()), state.now().timestamp_micros(), 30, (longest, &what))?;
        let kept = if bucket == Bucket::Hour { Kept::Hourly } else { Kept::Daily };
        let starts = bucket_starts(bucket, from, to, tz);
        let first = starts.first().copied().unwrap_or(from);
        let rows = rollups::series(&state.db, &scope, kept, first, to)
            .await?
            .ok_or_else(|| invalid("bucket", "hourly buckets are kept per meter only; ask for day or month"))?;
        let mut points: Vec<SeriesPoint> = starts
            .iter()
            .map(|start| SeriesPoint {
                start: iso_micros(*start),
                end: iso_micros(next_bucket(bucket, *start, tz)),
                volume_ml: 0,
                readings: 0,
            })
            .collect();
        for (start, volume_ml, readings) in rows {
            let at = bucket_of(bucket, start, tz);
            if let Ok(i) = starts.binary_search(&at) {
                points[i].volume_ml += volume_ml;
                points[i].readings += readings;
            }
        }
        Ok(Series {
            scope: scope_name,
            bucket: bucket_name,
            time_zone: tz.to_string(),
            from: iso_micros(from),
            to: iso_micros(to),
            total_ml: points.iter().map(|p| p.volume_ml).sum(),
            points,
        })
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
    Ok(HttpResponse::Ok().json(query.series(&state).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TopQuery {
    /// The last days, today included, 1 to 31 (default 7).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 31)]
    days: Option<String>,
    /// How many meters, 1 to 100 (default 10).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100)]
    limit: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Consumer {
    meter_id: String,
    meter_name: String,
    volume_ml: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TopConsumers {
    /// The first local day counted, from its midnight.
    from: String,
    to: String,
    items: Vec<Consumer>,
}

/// A whole number from `value`, `default` when absent, within `range`.
fn whole(field: &'static str, value: Option<&str>, default: i64, range: (i64, i64)) -> Result<i64, IngestError> {
    // Given empty, it is a bad number, as its schema says; only absent is the default.
    let Some(value) = value.map(str::trim) else { return Ok(default) };
    value
        .parse::<i64>()
        .ok()
        .filter(|n| (range.0..=range.1).contains(n))
        .ok_or_else(|| invalid(field, format!("must be a whole number from {} to {}", range.0, range.1)))
}

/// The meters that used the most in the last days (from the daily rollups,
/// at most a minute old).
#[utoipa::path(get, path = "/api/rollups/top", tag = "analytics", params(TopQuery),
    responses((status = 200, body = TopConsumers), (status = 400, body = ApiError)), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn top(
    caller: Caller,
    state: web::Data<IngestState>,
    query: web::Query<TopQuery>,
) -> Result<HttpResponse, ApiError> {
    let days = whole("days", query.days.as_deref(), 7, (1, 31))?;
    let limit = whole("limit", query.limit.as_deref(), 10, (1, 100))?;
    let now = state.now().timestamp_micros();
    let from = day_start(day_start(now, state.analytics.tz()) - (days - 1) * DAY_US + DAY_US / 2, state.analytics.tz());
    let items = state
        .top_consumers
        .get((from, limit), async || rollups::top(&state.db, from, now, limit).await)
        .await?
        .into_iter()
        .map(|(meter_id, meter_name, volume_ml)| Consumer { meter_id, meter_name, volume_ml })
        .collect();
    Ok(HttpResponse::Ok().json(TopConsumers { from: iso_micros(from), to: iso_micros(now), items }))
}
