//! The notification service's routes (spec §7, Other) and their OpenAPI
//! description.

mod inbox;
mod stream;

use actix_web::web;
use utoipa::OpenApi;
use wm_http::methods::not_a_fixed_path;

#[derive(OpenApi)]
#[openapi(paths(stream::get, inbox::list, inbox::dismiss, inbox::clear), components(schemas(wm_http::ApiError)))]
pub struct NotificationApi;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/notifications", web::get().to(stream::get))
        .route("/api/notifications/user", web::delete().to(inbox::clear))
        .route("/api/notifications/{deviceName}", web::delete().guard(not_a_fixed_path()).to(inbox::dismiss))
        .route("/api/notifications/{userId}", web::get().guard(not_a_fixed_path()).to(inbox::list));
}
