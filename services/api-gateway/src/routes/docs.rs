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
        telemetry, shutdown requests and notifications. Every route but sign-in needs a bearer access token \
        (`bearer`: a short-lived JWT from sign-in) or an API key (`apiKey`: `wmk_...`, made by an admin, sent the \
        same way as `Authorization: Bearer wmk_...`). A key reaches `/api/auth/*`, `/api/admin/*` and \
        `/api/audit` only with the admin role."),
    paths(super::uptime::get, super::dashboard::get),
    modifiers(&BearerScheme)
)]
pub struct GatewayApi;

/// The security scheme of API keys, every secured operation's other way in.
pub const API_KEY_SCHEME: &str = "apiKey";

struct BearerScheme;

impl Modify for BearerScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_default();
        let jwt = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .bearer_format("JWT")
            .description(Some("An access token from `POST /api/auth/login`, valid for minutes"))
            .build();
        components.add_security_scheme("bearer", SecurityScheme::Http(jwt));
        let key = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .bearer_format("wmk_<prefix>_<secret>")
            .description(Some("An API key made by an admin (`/api/admin/api-keys`), with its own role and expiry"))
            .build();
        components.add_security_scheme(API_KEY_SCHEME, SecurityScheme::Http(key));
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
