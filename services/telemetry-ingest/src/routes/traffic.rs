//! A gateway's traffic per day (docs/analytics.md): the uplinks it sent and
//! the meters it heard, every day present, counted from its activity.

use std::collections::HashSet;

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use wm_domain::iso_micros;
use wm_http::{ApiError, auth::Caller};

use super::{
    params::id_of,
    range::{invalid, range},
};
use crate::{
    domain::rollup::{Bucket, bucket_starts, day_start, next_bucket},
    state::IngestState,
    storage::rollups,
};

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TrafficQuery {
    /// The gateway's id.
    #[param(pattern = "^[0-9a-fA-F]{24}$")]
    gateway: String,
    /// The range's start (ISO 8601 date or date-time); by default 30 days before `to`.
    #[param(format = DateTime)]
    from: Option<String>,
    /// The range's end, excluded (ISO 8601); by default now. At most 366
    /// days; activity is kept `telemetry.retention_days` (90 by default).
    #[param(format = DateTime)]
    to: Option<String>,
}

/// One local day of a gateway's traffic.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrafficDay {
    start: String,
    end: String,
    /// Uplinks it sent (every accepted message but its last will).
    uplinks: i64,
    /// Meters it heard, each once.
    meters: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Traffic {
    gateway_id: String,
    time_zone: String,
    from: String,
    to: String,
    points: Vec<TrafficDay>,
}

/// A gateway's uplinks and the meters it heard, per day of the network's time zone.
#[utoipa::path(get, path = "/api/traffic", tag = "analytics", params(TrafficQuery),
    responses((status = 200, body = Traffic),
        (status = 400, description = "A bad gateway id or range, named in `fields`", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn traffic(
    caller: Caller,
    state: web::Data<IngestState>,
    query: web::Query<TrafficQuery>,
) -> Result<HttpResponse, ApiError> {
    let gateway = id_of(&query.gateway).map_err(|e| invalid("gateway", e.to_string()))?;
    let now = state.now().timestamp_micros();
    let (from, to) = range((query.from.as_deref(), query.to.as_deref()), now, 30, (366, "daily traffic"))?;
    let tz = state.analytics.tz();
    let starts = bucket_starts(Bucket::Day, from, to, tz);
    // Whole days: the last one's activity up to its end, now included.
    let until = starts.last().map_or(to, |last| next_bucket(Bucket::Day, *last, tz));
    let rows = rollups::traffic(&state.db, &gateway, starts.first().copied().unwrap_or(from), until).await?;
    let mut points: Vec<TrafficDay> = starts
        .iter()
        .map(|s| TrafficDay {
            start: iso_micros(*s),
            end: iso_micros(next_bucket(Bucket::Day, *s, tz)),
            uplinks: 0,
            meters: 0,
        })
        .collect();
    let mut heard: HashSet<(usize, String)> = HashSet::new();
    for (quarter, meter, uplinks) in rows {
        let Ok(i) = starts.binary_search(&day_start(quarter, tz)) else { continue };
        points[i].uplinks += uplinks;
        if let Some(meter) = meter.filter(|m| !m.is_empty())
            && heard.insert((i, meter))
        {
            points[i].meters += 1;
        }
    }
    let (time_zone, from, to) = (tz.to_string(), iso_micros(from), iso_micros(to));
    Ok(HttpResponse::Ok().json(Traffic { gateway_id: gateway, time_zone, from, to, points }))
}
