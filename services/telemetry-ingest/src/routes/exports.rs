//! Exports for billing and analysis (docs/analytics.md, Exports), as CSV
//! downloads: the meter index at a date and time, streamed so that a
//! million meters never sit in memory; and a consumption series.

use actix_web::{HttpResponse, web};
use bytes::Bytes;
use futures::StreamExt;
use serde::Deserialize;
use utoipa::IntoParams;
use wm_domain::iso_micros;
use wm_http::{
    ApiError,
    auth::Caller,
    csv::{self as csv_file, download},
};
use wm_storage::StorageError;

use super::{
    params::id_of,
    range::{invalid, time},
    rollups::SeriesQuery,
};
use crate::{
    csv,
    domain::rollup::{Bucket, day_start, hour_start, next_bucket},
    error::IngestError,
    state::IngestState,
    storage::exports::{self, IndexAt, IndexFilter, IndexRow},
};

/// The most meters named in one `meters` list.
const MAX_METERS: usize = 1000;
/// Rows on their way from the database at most, and per chunk of CSV.
const ROWS: usize = 1024;

/// The index's lines, a chunk at a time, as the rows arrive.
struct IndexLines {
    rows: tokio::sync::mpsc::Receiver<Result<IndexRow, StorageError>>,
    as_of: String,
}

impl IndexLines {
    /// The next chunk of lines; `None` at the end. A failure part way ends
    /// the download with an error (the client sees it cut short).
    async fn next(&mut self) -> Option<Result<Bytes, std::io::Error>> {
        let mut chunk = String::new();
        let line = |row: Result<IndexRow, StorageError>, chunk: &mut String| match row {
            Ok((id, serial, name, ml)) => {
                csv_file::record(chunk, [id.as_str(), &serial, &csv_file::text(&name), &csv::litres(ml), &self.as_of]);
                Ok(())
            }
            Err(e) => {
                tracing::error!(error = ?e, "the meter index export failed part way");
                Err(std::io::Error::other("the export failed part way"))
            }
        };
        let first = self.rows.recv().await?;
        if let Err(e) = line(first, &mut chunk) {
            return Some(Err(e));
        }
        for _ in 1..ROWS {
            let Ok(row) = self.rows.try_recv() else { break };
            if let Err(e) = line(row, &mut chunk) {
                return Some(Err(e));
            }
        }
        Some(Ok(Bytes::from(chunk)))
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct IndexQuery {
    /// The instant (ISO 8601 date or date-time); by default now. Rounded
    /// down to its hour, or to its day past the hourly buckets' retention.
    #[param(format = DateTime)]
    at: Option<String>,
    /// Only meters whose serial number or name holds this text (any case).
    q: Option<String>,
    /// Only these meters: ids, comma-separated, at most 1000.
    #[param(pattern = "^([0-9a-fA-F]{24}(,[0-9a-fA-F]{24})*)?$")]
    meters: Option<String>,
}

impl IndexQuery {
    fn filter(&self) -> Result<IndexFilter, IngestError> {
        let text = self.q.as_deref().map(str::trim).filter(|q| !q.is_empty()).map(str::to_owned);
        let meters: Vec<&str> =
            self.meters.as_deref().unwrap_or_default().split(',').map(str::trim).filter(|m| !m.is_empty()).collect();
        if meters.len() > MAX_METERS {
            return Err(invalid("meters", format!("at most {MAX_METERS} meters")));
        }
        let meters: Result<Vec<String>, IngestError> =
            meters.into_iter().map(|m| id_of(m).map_err(|e| invalid("meters", e.to_string()))).collect();
        Ok(IndexFilter { text, meters: meters? })
    }

    /// Where the index stops, and the instant the file names.
    fn at(&self, state: &IngestState) -> Result<(IndexAt, i64), IngestError> {
        let now = state.now().timestamp_micros();
        let at = time("at", self.at.as_deref())?.unwrap_or(now).min(now);
        let tz = state.analytics.tz();
        let hourly_since = now - state.telemetry.retention().num_microseconds().unwrap_or(i64::MAX);
        let hour = hour_start(at);
        if hour > hourly_since {
            let day_us = next_bucket(Bucket::Day, day_start(hour, tz), tz);
            return Ok((IndexAt { hour_us: hour, day_us }, hour));
        }
        let day = day_start(at, tz);
        Ok((IndexAt { hour_us: day, day_us: day }, day))
    }
}

/// A time as a file name holds it: `2026-11-30T23-00Z`.
fn file_time(us: i64) -> String {
    iso_micros(us).get(..16).unwrap_or_default().replace(':', "-") + "Z"
}

/// Every meter's index (total consumption) at an instant, for billing: one
/// line per meter, by serial number.
#[utoipa::path(get, path = "/api/exports/meter-index", tag = "analytics", params(IndexQuery),
    responses(
        (status = 200, description = "CSV: meter_id, serial_number, device_name, index_litres, as_of", content_type = "text/csv", body = String),
        (status = 400, description = "A bad instant or meter list, named in `fields`", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn meter_index(
    caller: Caller,
    state: web::Data<IngestState>,
    query: web::Query<IndexQuery>,
) -> Result<HttpResponse, ApiError> {
    let filter = query.filter()?;
    let (at, as_of_us) = query.at(&state)?;
    let (rows, received) = tokio::sync::mpsc::channel(ROWS);
    let db = state.db.clone();
    tokio::spawn(async move { exports::meter_index(&db, at, &filter, &rows).await });
    let mut header = String::new();
    csv_file::record(&mut header, ["meter_id", "serial_number", "device_name", "index_litres", "as_of"]);
    let lines = IndexLines { rows: received, as_of: iso_micros(as_of_us) };
    let body =
        futures::stream::once(async { Ok(Bytes::from(header)) })
            .chain(futures::stream::unfold(lines, |mut lines| async move {
                lines.next().await.map(|chunk| (chunk, lines))
            }));
    Ok(download(format!("meter-index-{}.csv", file_time(as_of_us))).streaming(body))
}

/// A meter's, a gateway's or the network's consumption per hour, day or
/// month over a range, as CSV: the same series as `/api/rollups`.
#[utoipa::path(get, path = "/api/exports/consumption", tag = "analytics", params(SeriesQuery),
    responses(
        (status = 200, description = "CSV: start, end, volume_litres, readings", content_type = "text/csv", body = String),
        (status = 400, description = "A bad or too long range, an unknown bucket or time zone, named in `fields`", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn consumption(
    caller: Caller,
    state: web::Data<IngestState>,
    query: web::Query<SeriesQuery>,
) -> Result<HttpResponse, ApiError> {
    let series = query.series(&state).await?;
    let mut body = String::new();
    csv_file::record(&mut body, ["start", "end", "volume_litres", "readings"]);
    for p in &series.points {
        csv_file::record(&mut body, [p.start.as_str(), &p.end, &csv::litres(p.volume_ml), &p.readings.to_string()]);
    }
    let from = series.from.get(..10).unwrap_or_default();
    let name = format!("consumption-{}-{}-{from}.csv", series.scope, series.bucket);
    Ok(download(name).body(body))
}
