//! The security headers of every response (docs/reliability.md): the
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

#[tokio::test]
async fn native_https_serves_the_same_headers_with_hsts() {
    let dir = tempfile::tempdir().unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let params = rcgen::CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()]).unwrap();
    let certificate = params.self_signed(&key).unwrap().pem();
    let (cert_file, key_file) = (dir.path().join("https.crt"), dir.path().join("https.key"));
    std::fs::write(&cert_file, &certificate).unwrap();
    std::fs::write(&key_file, key.serialize_pem()).unwrap();
    let db = wm_test_support::TestDb::sqlite().await;
    let mut settings = wmeter::config::Settings::default();
    settings.database = db.settings().clone();
    settings.http.tls.cert_file = cert_file.display().to_string();
    settings.http.tls.key_file = key_file.display().to_string();
    let app =
        crate::helpers::spawn_with(settings, wmeter::config::Mode::Embedded, wmeter::Role::Embedded, Some(db)).await;
    assert!(app.url.starts_with("https://127.0.0.1:"), "{}", app.url);
    let trusted = reqwest::Certificate::from_pem(certificate.as_bytes()).unwrap();
    let client = wm_http::client::builder().add_root_certificate(trusted).build().unwrap();
    let token = app.token(Role::Viewer);
    for path in ["/", "/api/proxy/gateways", "/api/docs/"] {
        let response = client.get(format!("{}{path}", app.url)).bearer_auth(&token).send().await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(response.version(), reqwest::Version::HTTP_2, "{path}: HTTP/2, by ALPN");
        assert_hardened(path, response.headers());
        assert_eq!(
            header(response.headers(), "strict-transport-security"),
            "max-age=31536000; includeSubDomains",
            "{path}"
        );
    }
    let plain = app.url.replacen("https://", "http://", 1);
    assert!(client.get(format!("{plain}/healthz")).send().await.is_err(), "no plain HTTP on the HTTPS port");
}
