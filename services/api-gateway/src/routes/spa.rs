use std::path::{Path, PathBuf};

use actix_files::{Files, NamedFile};
use actix_web::{
    HttpRequest, HttpResponse,
    dev::{ServiceRequest, ServiceResponse, fn_service},
    guard,
    http::header::{self, AcceptEncoding, ContentEncoding, Encoding, Header, HeaderValue},
    web,
};

/// The codings the build writes each asset in beside itself (`x.js.br`,
/// `x.js.gz`: `web/vite-precompress.ts`), best first, with their suffixes.
const CODINGS: [(ContentEncoding, &str); 2] = [(ContentEncoding::Brotli, "br"), (ContentEncoding::Gzip, "gz")];

/// Serves the built dashboard from `dir` to GET and HEAD. A path that is no
/// file gets `index.html`, so client-side routes such as `/gateways/{id}`
/// load the app; an `/api/...` path no route took gets the JSON 404 or 405
/// of [`wm_http::methods::Methods`] instead. Other methods fall through to
/// the app's default service (the same). An asset goes out compressed when
/// the build wrote it so and the browser accepts it ([`asset`]).
pub fn spa(dir: PathBuf) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        let index = dir.join("index.html");
        if !index.is_file() {
            tracing::warn!(dir = %dir.display(), "the dashboard is not built: run `make run` or `npm run build` in web/");
        }
        let assets = (dir.join("assets"), index.clone());
        cfg.service(web::resource("/assets/{name}").guard(guard::Any(guard::Get()).or(guard::Head())).to(
            move |req: HttpRequest| {
                let (assets, index) = assets.clone();
                async move { asset(&assets, &index, &req).await }
            },
        ));
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

/// A file of the dashboard's `assets/`, in the coding the request prefers
/// among those the build wrote it in (brotli, gzip, or as built). Names
/// other than a plain file name get what an unknown path gets: `index.html`.
async fn asset(assets: &Path, index: &Path, req: &HttpRequest) -> HttpResponse {
    let name = req.match_info().get("name").unwrap_or_default();
    let plain_name = !name.starts_with('.') && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    if !plain_name {
        return index_or_missing(index, req).await;
    }
    let path = assets.join(name);
    let written: Vec<(ContentEncoding, PathBuf)> = CODINGS
        .iter()
        .map(|(coding, suffix)| (*coding, assets.join(format!("{name}.{suffix}"))))
        .filter(|(_, path)| path.is_file())
        .collect();
    let offered = written.iter().map(|(coding, _)| Encoding::Known(*coding)).chain([Encoding::identity()]);
    let chosen =
        AcceptEncoding::parse(req).ok().and_then(|accept| accept.negotiate(offered.collect::<Vec<_>>().iter()));
    let compressed = written.iter().find(|(coding, _)| chosen == Some(Encoding::Known(*coding)));
    let opened = match compressed {
        Some((coding, file)) => NamedFile::open_async(file).await.map(|file| {
            let mime = actix_files::file_extension_to_mime(path.extension().and_then(|e| e.to_str()).unwrap_or(""));
            file.set_content_type(mime).set_content_encoding(*coding).disable_content_disposition()
        }),
        None => NamedFile::open_async(&path).await,
    };
    let Ok(file) = opened else {
        return index_or_missing(index, req).await;
    };
    let mut response = file.into_response(req);
    if !written.is_empty() {
        response.headers_mut().insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    response
}

async fn index_or_missing(index: &Path, req: &actix_web::HttpRequest) -> HttpResponse {
    match NamedFile::open_async(index).await {
        Ok(file) => file.use_etag(true).into_response(req),
        Err(_) => HttpResponse::NotFound()
            .content_type("text/plain; charset=utf-8")
            .body("The w-meter dashboard is not built. Run `make run`, or `npm run build` in web/."),
    }
}
