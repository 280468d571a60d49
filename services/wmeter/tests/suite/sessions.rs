//! Sign-in, refresh and logout over HTTP.

use serde_json::{Value, json};
use wm_http::auth::Role;

use super::target::Target;

pub use wm_test_support::sessions::{PASSWORD, login, refresh, set_cookie};

/// This test's operator, created with [`PASSWORD`].
async fn operator(t: &Target) -> String {
    let username = format!("ann{}", t.block);
    t.add_user(&username, PASSWORD, Role::Operator).await;
    username
}

/// Returns the signed-in user's id.
pub async fn login_refresh_logout_then_the_session_is_dead(t: &Target) -> String {
    let username = operator(t).await;
    let signed_in = login(t, &format!("  {username} "), PASSWORD).await;
    assert_eq!(signed_in.status(), 200);
    let (cookie, line) = set_cookie(&signed_in);
    let body: Value = signed_in.json().await.unwrap();
    assert_eq!(body["role"], "operator");
    assert_eq!(body["userId"].as_str().unwrap().len(), 24);
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/api/auth", "Secure"] {
        assert!(line.contains(attribute), "{attribute} in {line}");
    }
    assert!(line.starts_with("__Secure-wmeter_rt="), "{line}");
    let token = body["accessToken"].as_str().unwrap();
    let uptime = t.client.get(format!("{}/api/proxy/", t.url)).bearer_auth(token).send().await.unwrap();
    assert_eq!(uptime.status(), 200, "the access token opens the API");

    let refreshed = refresh(t, &cookie).await;
    assert_eq!(refreshed.status(), 200);
    let (rotated, _) = set_cookie(&refreshed);
    assert_ne!(rotated, cookie);
    assert!(refreshed.json::<Value>().await.unwrap()["accessToken"].is_string());

    let out = t.client.post(format!("{}/api/auth/logout", t.url)).header("Cookie", &rotated).send().await.unwrap();
    assert_eq!(out.status(), 204);
    assert!(set_cookie(&out).1.contains("Max-Age=0"), "logout clears the cookie");
    assert_eq!(refresh(t, &rotated).await.status(), 401);
    body["userId"].as_str().unwrap().to_owned()
}

pub async fn replaying_a_rotated_refresh_token_kills_the_family(t: &Target) {
    let username = operator(t).await;
    let (first, _) = set_cookie(&login(t, &username, PASSWORD).await);
    let (second, _) = set_cookie(&refresh(t, &first).await);
    let (third, _) = set_cookie(&refresh(t, &second).await);
    let replay = refresh(t, &first).await;
    assert_eq!(replay.status(), 401);
    assert_eq!(refresh(t, &third).await.status(), 401, "the newest token died with its family");
}

pub async fn refresh_needs_the_custom_header_and_a_cookie(t: &Target) {
    let username = operator(t).await;
    let (cookie, _) = set_cookie(&login(t, &username, PASSWORD).await);
    let cross_site =
        t.client.post(format!("{}/api/auth/refresh", t.url)).header("Cookie", &cookie).send().await.unwrap();
    assert_eq!(cross_site.status(), 403);
    assert_eq!(cross_site.json::<Value>().await.unwrap()["code"], "csrf_header_required");
    let no_cookie =
        t.client.post(format!("{}/api/auth/refresh", t.url)).header("X-WMeter-Refresh", "1").send().await.unwrap();
    assert_eq!(no_cookie.status(), 401);
}

pub async fn failures_look_alike_whoever_the_user_is(t: &Target) {
    let username = operator(t).await;
    let gone = format!("gone{}", t.block);
    t.add_user(&gone, PASSWORD, Role::Viewer).await;
    t.disable_user(&gone).await;
    let expected = json!({"code": "invalid_credentials", "message": "Invalid credentials"});
    let nobody = format!("nobody{}", t.block);
    for (username, password) in [(&username, "wrong-password"), (&nobody, PASSWORD), (&gone, PASSWORD)] {
        let response = login(t, username, password).await;
        assert_eq!(response.status(), 401, "{username}");
        assert!(response.headers().get("set-cookie").is_none());
        assert_eq!(response.json::<Value>().await.unwrap(), expected, "{username}");
    }
}
