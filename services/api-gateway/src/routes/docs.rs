//! The API description: the OpenAPI 3.1 document at
//! `/api/docs/openapi.json` and Swagger UI at `/api/docs/` (its files are
//! built in, so it works offline).

use actix_web::{HttpResponse, http::header, web};
use utoipa::{
    Modify, OpenApi,
    openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme},
};
use utoipa_swagger_ui::SwaggerUi;
use wm_http::auth::DOCS;

/// The gateway's own part, with the document's title and the bearer scheme
/// every protected route names.
#[derive(OpenApi)]
#[openapi(
    info(title = "w-meter API", description = "Monitoring an IoT water-metering network: gateways, water meters, \
        telemetry, shutdown requests and notifications. Every route but sign-in needs a bearer access token."),
    paths(super::uptime::get, super::dashboard::get),
    modifiers(&BearerScheme)
)]
pub struct GatewayApi;

struct BearerScheme;

impl Modify for BearerScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let scheme = HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build();
        openapi.components.get_or_insert_default().add_security_scheme("bearer", SecurityScheme::Http(scheme));
    }
}

/// Serves `api` and Swagger UI under `/api/docs`.
pub fn configure(api: utoipa::openapi::OpenApi) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.route(
            DOCS,
            web::get().to(|| async {
                HttpResponse::PermanentRedirect().insert_header((header::LOCATION, format!("{DOCS}/"))).finish()
            }),
        )
        .service(SwaggerUi::new(format!("{DOCS}/{{_:.*}}")).url(format!("{DOCS}/openapi.json"), api));
    }
}
