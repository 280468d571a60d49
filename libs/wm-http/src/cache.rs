//! Caching of what the dashboard is served with: the browser keeps hashed
//! assets, and revalidates HTML.

use actix_web::{
    Error,
    body::MessageBody,
    dev::{ServiceRequest, ServiceResponse},
    http::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderValue},
    middleware::Next,
};

/// Hashed files under `/assets/` never change, so browsers keep them for a
/// year; HTML (`index.html`) must be revalidated, so a deploy is seen on the
/// next load.
pub async fn control(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let assets = req.path().starts_with("/assets/");
    let mut response = next.call(req).await?;
    let html =
        response.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("text/html"));
    let value = match (response.status().is_success(), assets, html) {
        (true, true, _) => Some("public, max-age=31536000, immutable"),
        (true, false, true) => Some("no-cache"),
        _ => None,
    };
    if let Some(value) = value {
        response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static(value));
    }
    Ok(response)
}
