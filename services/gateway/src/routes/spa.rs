use std::path::{Path, PathBuf};

use actix_files::{Files, NamedFile};
use actix_web::{
    HttpResponse,
    dev::{ServiceRequest, ServiceResponse, fn_service},
    web,
};

/// Serves the built dashboard from `dir`. A path that is no file gets
/// `index.html`, so client-side routes such as `/gateways/{id}` load the app;
/// an unknown `/api/...` path gets a JSON 404 instead.
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
                    wm_http::not_found().await
                } else {
                    index_or_missing(&index, &req).await
                };
                Ok(ServiceResponse::new(req, response))
            }
        });
        cfg.service(Files::new("/", &dir).index_file("index.html").default_handler(fallback));
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
