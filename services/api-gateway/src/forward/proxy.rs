//! The forwarding itself: the request goes to its owner with the client's
//! address appended to `X-Forwarded-For`, and the answer streams back as it
//! arrives (SSE included). A service that cannot be reached gives a JSON 503.

use std::{sync::Arc, time::Duration};

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};
use wm_http::ApiError;

use super::{GatewaySettings, Owner, RouteTable};
use crate::error::GatewayError;

/// Headers that describe one hop, never forwarded (RFC 9110 §7.6.1).
const HOP_BY_HOP: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "host",
    "content-length",
];

/// The forwarding client, the route table and the upstream base URLs.
#[derive(Clone, Debug)]
pub struct Forwarder {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    client: reqwest::Client,
    table: RouteTable,
    settings: GatewaySettings,
    max_body_bytes: usize,
}

impl Forwarder {
    pub fn new(table: RouteTable, settings: GatewaySettings, max_body_bytes: usize) -> Result<Self, reqwest::Error> {
        // No overall timeout: an SSE answer lasts as long as the client stays.
        let client = wm_http::client::builder()
            .connect_timeout(Duration::from_millis(settings.connect_timeout_ms))
            .redirect(reqwest::redirect::Policy::none())
            .build()?;
        Ok(Self { inner: Arc::new(Inner { client, table, settings, max_body_bytes }) })
    }

    fn base_url(&self, owner: Owner) -> Option<&str> {
        let u = &self.inner.settings.upstreams;
        match owner {
            Owner::Auth => u.auth.as_deref(),
            Owner::DeviceRegistry => u.device_registry.as_deref(),
            Owner::TelemetryIngest => u.telemetry_ingest.as_deref(),
            Owner::Notification => u.notification.as_deref(),
        }
        .map(|url| url.trim_end_matches('/'))
    }
}

/// `/api/{tail}`: every API path the gateway does not serve itself.
#[tracing::instrument(skip_all, fields(path = req.path(), owner))]
pub async fn forward(
    req: HttpRequest,
    body: web::Payload,
    forwarder: web::Data<Forwarder>,
) -> Result<HttpResponse, ApiError> {
    let Some(owner) = forwarder.inner.table.owner(req.path()) else {
        // The same answer as a single process gives for an unknown route.
        return Ok(wm_http::not_found().await);
    };
    tracing::Span::current().record("owner", owner.name());
    let Some(base) = forwarder.base_url(owner) else {
        return Err(GatewayError::Unavailable(owner.name()).into());
    };
    let limit = wm_http::upload::limit_of(req.path(), forwarder.inner.max_body_bytes);
    let body = wm_http::upload::read(body, limit).await.map_err(|e| match e {
        wm_http::upload::ReadError::TooLarge(limit) => GatewayError::TooLarge(limit),
        wm_http::upload::ReadError::Broken(reason) => GatewayError::BadBody(reason),
    })?;
    let url = match req.uri().query() {
        Some(query) => format!("{base}{}?{query}", req.path()),
        None => format!("{base}{}", req.path()),
    };
    let method = reqwest::Method::from_bytes(req.method().as_str().as_bytes()).map_err(|_| GatewayError::Method)?;
    let upstream =
        forwarder.inner.client.request(method, url).headers(request_headers(&req)).body(body).send().await.map_err(
            |error| {
                tracing::warn!(owner = owner.name(), error = %wm_http::chain(&error), "service unreachable");
                GatewayError::Unavailable(owner.name())
            },
        )?;
    Ok(response(upstream))
}

/// The client's headers minus hop-by-hop ones, plus `X-Forwarded-For`
/// (the peer appended) and `X-Forwarded-Proto`. When traces are exported,
/// `traceparent` names the gateway's span, so the service's spans sit under
/// it; otherwise it passes as is.
fn request_headers(req: &HttpRequest) -> reqwest::header::HeaderMap {
    let mut headers = reqwest::header::HeaderMap::new();
    for (name, value) in end_to_end(req.headers().iter().map(|(k, v)| (k.as_str(), v.as_bytes()))) {
        if let (Ok(name), Ok(value)) =
            (reqwest::header::HeaderName::from_bytes(name.as_bytes()), reqwest::header::HeaderValue::from_bytes(value))
        {
            headers.append(name, value);
        }
    }
    if let Some(peer) = req.peer_addr() {
        let forwarded = match req.headers().get("x-forwarded-for").and_then(|v| v.to_str().ok()) {
            Some(earlier) => format!("{earlier}, {}", peer.ip()),
            None => peer.ip().to_string(),
        };
        if let Ok(value) = reqwest::header::HeaderValue::from_str(&forwarded) {
            headers.insert("x-forwarded-for", value);
        }
    }
    let scheme = req.connection_info().scheme().to_owned();
    if let Ok(value) = reqwest::header::HeaderValue::from_str(&scheme) {
        headers.insert("x-forwarded-proto", value);
    }
    wm_http::trace::propagate(&mut headers);
    headers
}

/// The end-to-end headers among `pairs`: hop-by-hop ones are dropped. Both
/// header maps hold lower-case names.
fn end_to_end<'a>(pairs: impl Iterator<Item = (&'a str, &'a [u8])>) -> impl Iterator<Item = (&'a str, &'a [u8])> {
    pairs.filter(|(name, _)| !HOP_BY_HOP.contains(name))
}

/// The service's answer, streamed back as it arrives.
fn response(upstream: reqwest::Response) -> HttpResponse {
    let status = StatusCode::from_u16(upstream.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
    let mut builder = HttpResponse::build(status);
    for (name, value) in end_to_end(upstream.headers().iter().map(|(k, v)| (k.as_str(), v.as_bytes()))) {
        if let (Ok(name), Ok(value)) = (
            actix_web::http::header::HeaderName::from_bytes(name.as_bytes()),
            actix_web::http::header::HeaderValue::from_bytes(value),
        ) {
            builder.append_header((name, value));
        }
    }
    builder.streaming(upstream.bytes_stream())
}
