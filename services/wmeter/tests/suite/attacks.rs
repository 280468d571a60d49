//! Attacks from a browser on another site, and from a stolen session: what
//! a foreign page can send is refused, and a disabled account loses its
//! session at once.

use reqwest::{Method, Response};
use serde_json::Value;
use wm_http::auth::Role;

use super::{
    sessions::{PASSWORD, login, refresh, set_cookie},
    target::Target,
};

const EVIL: &str = "https://evil.example";

/// No CORS grant of any kind.
fn assert_no_cors_grant(response: &Response, case: &str) {
    for header in ["access-control-allow-origin", "access-control-allow-credentials", "access-control-allow-methods"] {
        assert!(response.headers().get(header).is_none(), "{case}: {header} {:?}", response.headers().get(header));
    }
}

/// A signed-in operator's refresh cookie.
async fn signed_in(t: &Target, name: &str) -> String {
    let username = format!("{name}{}", t.block);
    t.add_user(&username, PASSWORD, Role::Operator).await;
    set_cookie(&login(t, &username, PASSWORD).await).0
}

pub async fn cross_origin_simple_posts_are_refused(t: &Target) {
    let cookie = signed_in(t, "csrf").await;
    // What a form on another site can send: a text/plain POST with the
    // browser's cookie, but no custom header and no bearer token.
    let forged = t
        .client
        .post(format!("{}/api/auth/refresh", t.url))
        .header("Origin", EVIL)
        .header("Content-Type", "text/plain")
        .header("Cookie", &cookie)
        .body("x=1")
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 403);
    assert!(forged.headers().get("set-cookie").is_none(), "no token rotated");
    assert_no_cors_grant(&forged, "refresh");
    assert_eq!(forged.json::<Value>().await.unwrap()["code"], "csrf_header_required");
    assert_eq!(refresh(t, &cookie).await.status(), 200, "the real session is untouched");

    let shutdown = "/api/proxy/wmeters/shutdown-requests/65f0a1b2c3d4e5f6abcdef01";
    for method in [Method::POST, Method::PATCH] {
        let forged = t
            .client
            .request(method.clone(), format!("{}{shutdown}", t.url))
            .header("Origin", EVIL)
            .header("Content-Type", "text/plain")
            .header("Cookie", &cookie)
            .body(r#"{"status":"confirmed"}"#)
            .send()
            .await
            .unwrap();
        assert!(forged.status().is_client_error(), "{method}: {}", forged.status());
        assert_no_cors_grant(&forged, "shutdown");
    }
    // Even with a stolen access token, a text/plain body is not an answer.
    let typed = t
        .client
        .patch(format!("{}{shutdown}", t.url))
        .bearer_auth(t.token(Role::Operator))
        .header("Origin", EVIL)
        .header("Content-Type", "text/plain")
        .body(r#"{"status":"confirmed"}"#)
        .send()
        .await
        .unwrap();
    assert!(typed.status().is_client_error() && typed.status() != 404, "{}", typed.status());
    assert_no_cors_grant(&typed, "shutdown with a token");
}

pub async fn a_foreign_preflight_gets_no_cors_grant(t: &Target) {
    let cases = [
        ("/api/auth/refresh", "POST", "x-wmeter-refresh"),
        ("/api/auth/login", "POST", "content-type"),
        ("/api/proxy/wmeters/shutdown-requests/65f0a1b2c3d4e5f6abcdef01", "PATCH", "authorization, content-type"),
        ("/api/audit", "GET", "authorization"),
    ];
    for (path, method, headers) in cases {
        let preflight = t
            .client
            .request(Method::OPTIONS, format!("{}{path}", t.url))
            .header("Origin", EVIL)
            .header("Access-Control-Request-Method", method)
            .header("Access-Control-Request-Headers", headers)
            .send()
            .await
            .unwrap();
        assert_no_cors_grant(&preflight, path);
        assert!(!preflight.status().is_success(), "{path}: {}", preflight.status());
    }
}

pub async fn a_disabled_account_loses_refresh_at_once(t: &Target) {
    let username = format!("leaver{}", t.block);
    t.add_user(&username, PASSWORD, Role::Operator).await;
    let (cookie, _) = set_cookie(&login(t, &username, PASSWORD).await);
    let (rotated, _) = set_cookie(&refresh(t, &cookie).await);
    t.disable_user(&username).await;
    let refused = refresh(t, &rotated).await;
    assert_eq!(refused.status(), 401, "the very next refresh");
    assert!(set_cookie(&refused).1.contains("Max-Age=0"), "the browser is told to forget the cookie");
    assert_eq!(refused.json::<Value>().await.unwrap()["code"], "invalid_credentials");
    assert_eq!(login(t, &username, PASSWORD).await.status(), 401, "and signing in again");
}
