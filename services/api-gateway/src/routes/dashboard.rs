//! What the dashboard is configured with at run time (the `web` section):
//! where the map's tiles come from.

use actix_web::{HttpResponse, web};
use serde::Serialize;
use utoipa::ToSchema;

/// The dashboard's settings.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DashboardSettings {
    /// The map's tile URL template (`{z}`, `{x}`, `{y}`); empty: no tiles,
    /// the map is drawn on a plain background.
    pub map_tiles_url: String,
    /// Who the tiles are from, as the tile server asks to be credited.
    pub map_attribution: String,
}

/// `GET /api/dashboard/settings`: how the dashboard is configured.
#[utoipa::path(get, path = "/api/dashboard/settings", tag = "server",
    responses((status = 200, body = DashboardSettings)), security(("bearer" = [])))]
#[tracing::instrument(skip_all)]
pub async fn get(settings: web::Data<DashboardSettings>) -> HttpResponse {
    HttpResponse::Ok().json(settings.get_ref())
}
