//! The network on a map (docs/map.md): a view's clusters and markers, and
//! where the network is, for the map to open on it.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use wm_domain::DeviceKind;
use wm_http::{ApiError, auth::Caller};

use crate::{
    error::RegistryError,
    map::{Bbox, Cell, FINEST, MAX_ITEMS},
    state::RegistryState,
    storage::{self, map::DeviceRow},
};

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MapQuery {
    /// The view: west,south,east,north in degrees, west less than east and
    /// south less than north.
    #[param(example = "4.7,45.7,4.95,45.82", pattern = "^-?[0-9]+(\\.[0-9]+)?(,-?[0-9]+(\\.[0-9]+)?){3}$")]
    bbox: String,
}

/// Several devices close together, drawn as one.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Cluster {
    /// Where it is drawn: the mean of its devices' positions.
    lon: f64,
    lat: f64,
    count: i64,
    meters: i64,
    gateways: i64,
    /// The worst health among its devices: `critical`, `down`, `lost` or `healthy`.
    health: &'static str,
    healthy: i64,
    lost: i64,
    down: i64,
    critical: i64,
    /// Where its devices are, west, south, east, north: zoom to it to see them.
    bbox: [f64; 4],
}

/// One device, drawn on its own.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Marker {
    id: String,
    /// `meter` or `gateway`.
    kind: String,
    name: String,
    lon: f64,
    lat: f64,
    /// `critical`, `down`, `lost` or `healthy`.
    health: &'static str,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MapView {
    /// The cells' level (above 16: the devices themselves, live).
    level: u32,
    /// Devices in the view.
    total: i64,
    /// When the clusters' counts were taken (they are at most a minute old);
    /// null before the first count.
    counted_at: Option<String>,
    /// More devices are in the view than one answer holds.
    truncated: bool,
    clusters: Vec<Cluster>,
    markers: Vec<Marker>,
}

/// The worst health of `(critical, down, lost)` counts.
fn worst(critical: i64, down: i64, lost: i64) -> &'static str {
    if critical > 0 {
        "critical"
    } else if down > 0 {
        "down"
    } else if lost > 0 {
        "lost"
    } else {
        "healthy"
    }
}

fn view_of_cells(cells: Vec<Cell>) -> (Vec<Cluster>, Vec<Marker>) {
    let (mut clusters, mut markers) = (Vec::new(), Vec::new());
    for c in cells {
        let n = c.devices();
        let (lon, lat) = (c.lon_sum / n.max(1) as f64, c.lat_sum / n.max(1) as f64);
        let health = worst(c.critical, c.down, c.lost);
        if n == 1 {
            let (id, kind, name) = c.sample;
            markers.push(Marker { id, kind, name, lon, lat, health });
        } else {
            let (count, meters, gateways, healthy) = (n, c.meters, c.gateways, n - c.unhealthy);
            let (lost, down, critical, bbox) = (c.lost, c.down, c.critical, c.extent);
            clusters.push(Cluster { lon, lat, count, meters, gateways, health, healthy, lost, down, critical, bbox });
        }
    }
    (clusters, markers)
}

fn marker(state: &RegistryState, (id, kind, name, lon, lat, critical, down, last): DeviceRow) -> Marker {
    let kind_of = if kind == "gateway" { DeviceKind::Gateway } else { DeviceKind::Meter };
    let lost = last < state.lost_before(kind_of);
    let health = worst(i64::from(critical), i64::from(down), i64::from(lost));
    Marker { id, kind, name, lon, lat, health }
}

/// The clusters and markers of a view: counted cells (at most a minute old),
/// or, zoomed in close enough, the devices themselves, live; at most 2000.
#[utoipa::path(get, path = "/api/map", tag = "map", params(MapQuery),
    responses((status = 200, body = MapView), (status = 400, description = "A bad view, named in `fields`", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn view(
    caller: Caller,
    state: web::Data<RegistryState>,
    query: web::Query<MapQuery>,
) -> Result<HttpResponse, ApiError> {
    let bbox = Bbox::parse(&query.bbox).map_err(|message| RegistryError::invalid("bbox", &message))?;
    let level = bbox.level();
    let (cells, at) = storage::map::cells(state.db(), level.min(FINEST), bbox.corners(level.min(FINEST))).await?;
    let total: i64 = cells.iter().map(Cell::devices).sum();
    let counted_at = at.and_then(chrono::DateTime::from_timestamp_micros).map(|at| at.to_rfc3339());
    let (clusters, markers, truncated) = if level > FINEST && total <= MAX_ITEMS as i64 {
        let rows = storage::map::devices(state.db(), &bbox, MAX_ITEMS + 1).await?;
        let truncated = rows.len() > MAX_ITEMS;
        (Vec::new(), rows.into_iter().take(MAX_ITEMS).map(|row| marker(&state, row)).collect(), truncated)
    } else {
        let (clusters, markers) = view_of_cells(cells);
        (clusters, markers, false)
    };
    Ok(HttpResponse::Ok().json(MapView { level, total, counted_at, truncated, clusters, markers }))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Extent {
    /// West, south, east, north of every device with a position; null when
    /// none has one (or before the first count).
    bbox: Option<[f64; 4]>,
    devices: i64,
}

/// Where the network is, for a map to open on it.
#[utoipa::path(get, path = "/api/map/extent", tag = "map",
    responses((status = 200, body = Extent)), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn extent(caller: Caller, state: web::Data<RegistryState>) -> Result<HttpResponse, ApiError> {
    let extent = storage::map::extent(state.db()).await?;
    let (bbox, devices) = extent.map_or((None, 0), |(bbox, devices)| (Some(bbox), devices));
    Ok(HttpResponse::Ok().json(Extent { bbox, devices }))
}
