//! Security headers on every response (docs/reliability.md): a strict
//! Content-Security-Policy for the dashboard (no inline scripts; images
//! from the map's tile server too), no MIME sniffing, no framing, a
//! referrer kept to the origin, API answers never stored, and HSTS when
//! the server itself speaks HTTPS.

use actix_web::{
    Error,
    body::MessageBody,
    dev::{ServiceRequest, ServiceResponse},
    http::header::{self, HeaderName, HeaderValue},
    middleware::Next,
    web,
};

/// What every response carries. Add it as app data for [`headers`].
#[derive(Clone, Debug)]
pub struct SecurityHeaders {
    policy: HeaderValue,
    hsts: Option<HeaderValue>,
}

impl SecurityHeaders {
    /// The policy, allowing images from `image_origins` as well as the
    /// dashboard's own (tiles); `hsts` when the server speaks HTTPS.
    pub fn new(image_origins: &[String], hsts: bool) -> Self {
        let images = std::iter::once("'self' data: blob:".to_owned())
            .chain(image_origins.iter().filter(|o| !o.is_empty() && o.bytes().all(is_source_byte)).cloned())
            .collect::<Vec<_>>()
            .join(" ");
        let policy = format!(
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src {images}; \
             font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; \
             base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
        );
        Self {
            // Every byte was checked above; the fallback is never used.
            policy: HeaderValue::from_str(&policy).unwrap_or(HeaderValue::from_static("default-src 'self'")),
            hsts: hsts.then(|| HeaderValue::from_static("max-age=31536000; includeSubDomains")),
        }
    }
}

/// A byte a CSP source expression may hold (no `;` or `,`, nothing a
/// header cannot carry).
fn is_source_byte(b: u8) -> bool {
    b.is_ascii_graphic() && b != b';' && b != b','
}

/// The origin of an http(s) URL template as a CSP source: a `{s}`
/// subdomain becomes `*`. `None` for anything else.
pub fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://").filter(|(s, _)| *s == "https" || *s == "http")?;
    let host = rest.split(['/', '?', '#']).next().filter(|h| !h.is_empty())?;
    let host = match host.strip_prefix("{s}.") {
        Some(rest) => format!("*.{rest}"),
        None => host.to_owned(),
    };
    (!host.contains(['{', '}', '@'])).then(|| format!("{scheme}://{host}"))
}

/// Adds the headers to every response; an API answer gets
/// `Cache-Control: no-store` unless it set its own. (Inner middleware
/// answers refusals as responses, not errors, so that they get them too.)
pub async fn headers(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let settings = req.app_data::<web::Data<SecurityHeaders>>().cloned();
    let api = req.path().starts_with("/api/");
    let mut response = next.call(req).await?;
    let headers = response.headers_mut();
    let mut set = |name: HeaderName, value: HeaderValue| {
        if !headers.contains_key(&name) {
            headers.insert(name, value);
        }
    };
    if let Some(settings) = settings {
        set(header::CONTENT_SECURITY_POLICY, settings.policy.clone());
        if let Some(hsts) = &settings.hsts {
            set(header::STRICT_TRANSPORT_SECURITY, hsts.clone());
        }
    }
    set(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    set(header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin"));
    set(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    if api {
        set(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tile_template_gives_its_origin() {
        let origin = |url| origin_of(url);
        assert_eq!(
            origin("https://tile.openstreetmap.org/{z}/{x}/{y}.png").as_deref(),
            Some("https://tile.openstreetmap.org")
        );
        assert_eq!(
            origin("https://{s}.tile.example.com:8443/{z}/{x}/{y}").as_deref(),
            Some("https://*.tile.example.com:8443")
        );
        for bad in ["", "ftp://x/{z}", "https:///{z}", "https://a{s}b/{z}", "https://user@evil/{z}"] {
            assert_eq!(origin(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_policy_forbids_inline_scripts_and_framing_and_names_the_tiles() {
        let headers =
            SecurityHeaders::new(&["https://tile.openstreetmap.org".to_owned(), "x; script-src *".into()], false);
        let policy = headers.policy.to_str().unwrap();
        assert!(policy.contains("script-src 'self';"), "{policy}");
        assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
        assert!(policy.contains("img-src 'self' data: blob: https://tile.openstreetmap.org;"), "{policy}");
        assert!(!policy.contains("script-src *"), "an origin cannot inject a directive: {policy}");
        assert!(headers.hsts.is_none());
    }
}
