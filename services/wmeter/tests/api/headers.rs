//! The security headers of every response (docs/security.md): the
//! dashboard, an API answer, a refusal and the API's documentation page.

use reqwest::header::HeaderMap;
use wm_http::auth::Role;

use crate::helpers::spawn_app;

fn header<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers.get(name).map_or("", |v| v.to_str().unwrap())
}

fn assert_hardened(what: &str, headers: &HeaderMap) {
    let policy = header(headers, "content-security-policy");
    for directive in ["default-src 'self'", "script-src 'self';", "frame-ancestors 'none'", "object-src 'none'"] {
        assert!(policy.contains(directive), "{what}: {directive} in {policy:?}");
    }
    assert!(!policy.contains("unsafe-eval") && !policy.contains("script-src 'self' 'unsafe-inline'"), "{policy}");
    assert!(policy.contains("img-src 'self' data: blob: https://tile.openstreetmap.org;"), "the tiles: {policy}");
    assert_eq!(header(headers, "x-content-type-options"), "nosniff", "{what}");
    assert_eq!(header(headers, "referrer-policy"), "strict-origin-when-cross-origin", "{what}");
    assert_eq!(header(headers, "x-frame-options"), "DENY", "{what}");
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let app = spawn_app().await;
    let page = app.get("/").await;
    assert_eq!(page.status(), 200);
    assert_hardened("/", page.headers());
    assert_eq!(header(page.headers(), "cache-control"), "no-cache", "HTML is revalidated, not unstored");

    let api = app.get_as(Role::Viewer, "/api/proxy/gateways").await;
    assert_eq!(api.status(), 200);
    assert_hardened("an API answer", api.headers());
    assert_eq!(header(api.headers(), "cache-control"), "no-store");

    let refused = app.get("/api/proxy/gateways").await;
    assert_eq!(refused.status(), 401);
    assert_hardened("a refusal", refused.headers());
    assert_eq!(header(refused.headers(), "cache-control"), "no-store");

    let docs = app.get("/api/docs/").await;
    assert_eq!(docs.status(), 200);
    assert_hardened("/api/docs/", docs.headers());
    let html = docs.text().await.unwrap();
    assert!(
        !html.contains("<script>") && !html.to_lowercase().contains("<script type=\"text/javascript\">"),
        "no inline script: {html}"
    );
}
