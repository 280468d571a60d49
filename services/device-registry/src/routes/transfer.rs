//! Devices in and out as CSV (docs/devices-csv.md): an import's dry run
//! and apply, and the export of the gateway and meter lists, in the same
//! columns, so an export imports again.

use std::collections::HashMap;

use actix_web::{HttpResponse, http::StatusCode, web};
use serde::Serialize;
use utoipa::ToSchema;
use wm_http::{ApiError, auth::Caller, csv, upload};

use crate::{
    import::{self, Kind, RowError},
    state::RegistryState,
    storage::{
        lists::{self, Filter, Page, Table},
        rows::{GatewayRow, MeterRow},
    },
};

/// Rows read from the list per query of an export.
const EXPORT_PAGE: i64 = 500;

/// What an import found, and did.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    /// `gateways` or `meters`.
    kind: &'static str,
    /// Whether the valid rows were registered (`apply=true`).
    applied: bool,
    /// Rows after the header.
    rows: usize,
    /// Rows without a problem, `unchanged` ones included.
    valid: usize,
    /// Devices registered by this call (0 in a dry run).
    registered: usize,
    /// Rows whose device is registered already, as it is.
    unchanged: usize,
    /// Every problem, by row.
    errors: Vec<RowError>,
}

fn kind_of(text: &str) -> Result<Kind, ApiError> {
    Kind::parse(text).ok_or_else(|| ApiError::validation(format!("kind must be gateways or meters, not {text:?}")))
}

fn invalid_csv(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "invalid_csv", message)
}

/// Reads a CSV of gateways or meters: a dry run reports each row's
/// problems with the registration form's messages, duplicates in the file
/// and against the registry; `apply=true` also registers the valid rows.
/// Operators and admins.
#[utoipa::path(post, path = "/api/devices/import/{kind}", tag = "devices",
    params(("kind" = String, Path, description = "`gateways` or `meters`", pattern = "^(gateways|meters)$"),
        ("apply" = Option<bool>, Query, description = "`true` registers the valid rows; otherwise a dry run")),
    request_body(content = String, content_type = "text/csv",
        description = "UTF-8 CSV, at most 10 MiB and 50,000 rows, with the header of its kind"),
    responses((status = 200, body = ImportReport),
        (status = 400, description = "`invalid_csv`: not UTF-8, a wrong header, no rows, too many rows", body = ApiError),
        (status = 403, description = "A viewer may not register devices", body = ApiError),
        (status = 413, description = "The file is larger than 10 MiB", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn import(
    caller: Caller,
    state: web::Data<RegistryState>,
    kind: web::Path<String>,
    query: web::Query<HashMap<String, String>>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    caller.may_change_devices()?;
    let kind = kind_of(&kind)?;
    let apply = match query.get("apply").map(String::as_str) {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => return Err(ApiError::validation(format!("apply must be true or false, not {other:?}"))),
    };
    let bytes = upload::read(body, upload::MAX_CSV_BYTES).await.map_err(|e| match e {
        upload::ReadError::TooLarge(_) => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            "The file is larger than 10 MiB; split it",
        ),
        upload::ReadError::Broken(reason) => invalid_csv(reason),
    })?;
    let mut checked = import::parse(kind, &bytes).map_err(|e| invalid_csv(e.to_string()))?;
    import::against_registry(state.db(), &mut checked).await?;
    let (rows, unchanged) = (checked.rows, checked.unchanged);
    let mut valid = checked.new.len() + unchanged;
    let mut registered = 0;
    if apply && !checked.new.is_empty() {
        let attempt = RegistryState::attempt(&caller, "devices.import");
        let (done, skipped) = state.actions.register_all(&attempt, std::mem::take(&mut checked.new)).await?;
        registered = done;
        valid -= skipped.iter().map(|e| e.row).collect::<std::collections::HashSet<_>>().len();
        checked.errors.extend(skipped);
    }
    let report = ImportReport {
        kind: kind.as_str(),
        applied: apply,
        rows,
        valid,
        registered,
        unchanged,
        errors: checked.errors,
    };
    Ok(HttpResponse::Ok().json(report))
}

/// The gateways or meters as CSV, in the import's columns, newest first:
/// all of them, or with `start` those registered before it (the list
/// page's filter). Any role.
#[utoipa::path(get, path = "/api/devices/export/{kind}", tag = "devices",
    params(("kind" = String, Path, description = "`gateways` or `meters`", pattern = "^(gateways|meters)$"),
        ("start" = Option<String>, Query, description = "An ISO 8601 time: devices registered before it", format = DateTime)),
    responses((status = 200, description = "CSV", content_type = "text/csv", body = String),
        (status = 400, description = "A bad kind or start", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn export(
    caller: Caller,
    state: web::Data<RegistryState>,
    kind: web::Path<String>,
    query: web::Query<HashMap<String, String>>,
) -> Result<HttpResponse, ApiError> {
    let kind = kind_of(&kind)?;
    let start = query
        .get("start")
        .map(|s| wm_http::params::start(s))
        .transpose()
        .map_err(|message| ApiError::validation(message.clone()).with_field("start", message))?
        .map(|at| at.timestamp_micros());
    let mut out = String::new();
    csv::record(&mut out, kind.columns().iter().copied());
    match kind {
        Kind::Gateways => write_all::<GatewayRow>(state.db(), start, &mut out, gateway_line).await?,
        Kind::Meters => write_all::<MeterRow>(state.db(), start, &mut out, meter_line).await?,
    }
    let name = format!("{}-{}.csv", kind.as_str(), chrono::Utc::now().format("%Y-%m-%dT%H-%MZ"));
    Ok(csv::download(name).body(out))
}

/// Writes every device registered before `start` (all without it), a page
/// at a time, newest first.
async fn write_all<T: Table>(
    db: &wm_storage::Db,
    mut start: Option<i64>,
    out: &mut String,
    line: fn(&T, &mut String) -> i64,
) -> Result<(), ApiError> {
    loop {
        let page = Page { max: EXPORT_PAGE, start, reverse: start.is_some() };
        let rows: Vec<T> = lists::list(db, Filter::All, page).await?;
        for row in &rows {
            start = Some(line(row, out));
        }
        if i64::try_from(rows.len()).unwrap_or(i64::MAX) < EXPORT_PAGE {
            return Ok(());
        }
    }
}

fn number(value: Option<f64>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// Writes `row`; returns its `registeredAt`, where the next page starts.
fn gateway_line(row: &GatewayRow, out: &mut String) -> i64 {
    let (latitude, longitude) = (number(row.latitude), number(row.longitude));
    let cells = [&row.serial_number, &row.imei, &row.phone_number, &row.ble_address, &row.mac_address];
    let mut fields: Vec<std::borrow::Cow<'_, str>> = cells.iter().map(|c| csv::text(c)).collect();
    fields.extend([latitude.into(), longitude.into()]);
    csv::record(out, fields.iter().map(AsRef::as_ref));
    row.registered_at
}

fn meter_line(row: &MeterRow, out: &mut String) -> i64 {
    let (latitude, longitude) = (number(row.latitude), number(row.longitude));
    csv::record(
        out,
        [&csv::text(&row.serial_number), &csv::text(&row.ble_address), latitude.as_str(), longitude.as_str()]
            .iter()
            .map(|s| s.as_ref()),
    );
    row.registered_at
}
