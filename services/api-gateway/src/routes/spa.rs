use std::path::{Path, PathBuf};

use actix_files::{Files, NamedFile};
use actix_web::{
    HttpResponse,
    dev::{ServiceRequest, ServiceResponse, fn_service},
    guard, web,
};

/// Serves the built dashboard from `dir` to GET and HEAD. A path that is no
/// file gets `index.html`, so client-side routes such as `/gateways/{id}`
/// load the app; an `/api/...` path no route took gets the JSON 404 or 405
/// of [`wm_http::methods::Methods`] instead. Other methods fall through to
/// the app's default service (the same).
pub fn spa(dir: PathBuf) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        let index = dir.join("index.html");
        if !index.is_file() {
            tracing::warn!(dir = %dir.display(), "the dashboard is not built: run `make run` or `npm run build` in web/");
        }
        let fallback = fn_service(move |req: ServiceRequest| {
            let index = index.clone();
            async move {
                let (req, _) = req.into_parts();
                let response = if req.path().starts_with("/api/") || req.path() == "/api" {
                    wm_http::methods::Methods::fallback(req.clone()).await
                } else {
                    index_or_missing(&index, &req).await
                };
                Ok(ServiceResponse::new(req, response))
            }
        });
        cfg.service(
            Files::new("/", &dir)
                .index_file("index.html")
                .guard(guard::Any(guard::Get()).or(guard::Head()))
                .default_handler(fallback),
        );
    }
}

async fn index_or_missing(index: &Path, req: &actix_web::HttpRequest) -> HttpResponse {
    match NamedFile::open_async(index).await {
        Ok(file) => file.use_etag(true).into_response(req),
        Err(_) => HttpResponse::NotFound()
            .content_type("text/plain; charset=utf-8")
            .body("The w-meter dashboard is not built. Run `make run`, or `npm run build` in web/."),
    }
}
