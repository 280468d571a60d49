//! The notification service's routes (spec §7, Other) and their OpenAPI
//! description.

mod alarm_rules;
mod inbox;
mod stream;

use actix_web::web;
use utoipa::OpenApi;
use wm_http::methods::not_a_fixed_path;

#[derive(OpenApi)]
#[openapi(
    paths(
        stream::get,
        inbox::list,
        inbox::dismiss,
        inbox::clear,
        alarm_rules::list,
        alarm_rules::create,
        alarm_rules::update,
        alarm_rules::delete,
        alarm_rules::test,
        alarm_rules::deliveries,
    ),
    components(schemas(wm_http::ApiError))
)]
pub struct NotificationApi;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/notifications", web::get().to(stream::get))
        .route("/api/notifications/user", web::delete().to(inbox::clear))
        .route("/api/notifications/{deviceName}", web::delete().guard(not_a_fixed_path()).to(inbox::dismiss))
        .route("/api/notifications/{userId}", web::get().guard(not_a_fixed_path()).to(inbox::list))
        .route("/api/admin/rules", web::get().to(alarm_rules::list))
        .route("/api/admin/rules", web::post().to(alarm_rules::create))
        .route("/api/admin/rules/{id}", web::put().to(alarm_rules::update))
        .route("/api/admin/rules/{id}", web::delete().to(alarm_rules::delete))
        .route("/api/admin/rules/{id}/test", web::post().to(alarm_rules::test))
        .route("/api/admin/rules/{id}/deliveries", web::get().to(alarm_rules::deliveries));
}
