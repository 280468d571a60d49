//! Users administered over HTTP (docs/administration.md): each change
//! ends the user's access tokens on their next request, on whichever
//! service answers it; in the distributed deployment that is another
//! process than the auth service's, within a second.

use std::time::Duration;

use reqwest::{Method, Response};
use serde_json::{Value, json};
use wm_http::auth::Role;
use wm_test_support::sessions::{PASSWORD, login, refresh, set_cookie};

use super::{gateway_body, target::Target};

/// A route of another service than auth: the meter list.
pub const ELSEWHERE: &str = "/api/proxy/wmeters";
/// How long a change may take to reach every service.
pub const PROPAGATION: Duration = Duration::from_secs(1);

pub async fn send(t: &Target, token: &str, method: Method, path: &str, body: Option<Value>) -> Response {
    let mut request = t.client.request(method, format!("{}{path}", t.url)).bearer_auth(token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    request.send().await.unwrap()
}

/// Signs in; the access token and the refresh cookie.
async fn sign_in(t: &Target, username: &str, password: &str) -> (String, String) {
    let response = login(t, username, password).await;
    assert_eq!(response.status(), 200, "{username} signs in");
    let (cookie, _) = set_cookie(&response);
    let body: Value = response.json().await.unwrap();
    (body["accessToken"].as_str().unwrap().to_owned(), cookie)
}

/// Waits up to [`PROPAGATION`] for `token` to be refused on another
/// service, and returns the refusal.
async fn refused_elsewhere(t: &Target, token: &str) -> Value {
    let deadline = tokio::time::Instant::now() + PROPAGATION;
    loop {
        let response = send(t, token, Method::GET, ELSEWHERE, None).await;
        let status = response.status();
        if status == 401 {
            return response.json().await.unwrap();
        }
        // Until then the token is taken as before: 200, or 403 for one that
        // must change its password.
        assert!([200, 403].contains(&status.as_u16()), "{status}");
        assert!(tokio::time::Instant::now() < deadline, "the token still gets {status} after {PROPAGATION:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn patch(t: &Target, admin: &str, id: &str, body: Value) -> Response {
    send(t, admin, Method::PATCH, &format!("/api/admin/users/{id}"), Some(body)).await
}

pub async fn an_admin_creates_a_user_who_must_change_the_one_time_password(t: &Target) {
    let boss = format!("boss-{}", t.n(1));
    t.add_user(&boss, PASSWORD, Role::Admin).await;
    let (admin, _) = sign_in(t, &boss, PASSWORD).await;
    let username = format!("new-op-{}", t.n(1));
    let created =
        send(t, &admin, Method::POST, "/api/admin/users", Some(json!({"username": username, "role": "operator"})))
            .await;
    assert_eq!(created.status(), 201);
    let created: Value = created.json().await.unwrap();
    let one_time = created["oneTimePassword"].as_str().unwrap().to_owned();
    assert_eq!(one_time.len(), 16);
    assert_eq!((&created["user"]["role"], &created["user"]["mustChangePassword"]), (&json!("operator"), &json!(true)));

    let (first, _) = sign_in(t, &username, &one_time).await;
    let blocked = send(t, &first, Method::GET, ELSEWHERE, None).await;
    assert_eq!(blocked.status(), 403);
    assert_eq!(blocked.json::<Value>().await.unwrap()["code"], "password_change_required");
    let me: Value = send(t, &first, Method::GET, "/api/auth/me", None).await.json().await.unwrap();
    assert_eq!((&me["username"], &me["mustChangePassword"]), (&json!(username), &json!(true)));

    let wrong = json!({"currentPassword": "not-it-at-all", "newPassword": "a-new-password"});
    let refused = send(t, &first, Method::POST, "/api/auth/password", Some(wrong)).await;
    assert_eq!(refused.status(), 400);
    assert_eq!(refused.json::<Value>().await.unwrap()["fields"]["currentPassword"], "The current password is wrong");
    let short = json!({"currentPassword": one_time, "newPassword": "short"});
    let refused = send(t, &first, Method::POST, "/api/auth/password", Some(short)).await;
    assert_eq!(
        refused.json::<Value>().await.unwrap()["fields"]["newPassword"],
        "The new password must be at least 8 characters"
    );

    let change = json!({"currentPassword": one_time, "newPassword": "a-new-password"});
    let changed = send(t, &first, Method::POST, "/api/auth/password", Some(change)).await;
    assert_eq!(changed.status(), 200);
    let (cookie, _) = set_cookie(&changed);
    let second = changed.json::<Value>().await.unwrap()["accessToken"].as_str().unwrap().to_owned();
    assert_eq!(send(t, &second, Method::GET, ELSEWHERE, None).await.status(), 200, "the new token works");
    assert_eq!(refresh(t, &cookie).await.status(), 200, "and the new session refreshes");
    let old = refused_elsewhere(t, &first).await;
    assert_eq!(old["message"], "The access token was revoked; refresh it");
    assert_eq!(login(t, &username, &one_time).await.status(), 401, "the one-time password is gone");
    sign_in(t, &username, "a-new-password").await;
}

pub async fn a_role_change_a_disable_and_a_revocation_take_effect_on_the_next_request(t: &Target) {
    let boss = format!("chief-{}", t.n(2));
    t.add_user(&boss, PASSWORD, Role::Admin).await;
    let (admin, _) = sign_in(t, &boss, PASSWORD).await;
    let username = format!("shifter-{}", t.n(2));
    let body = json!({"username": username, "role": "operator", "password": PASSWORD});
    let created: Value = send(t, &admin, Method::POST, "/api/admin/users", Some(body)).await.json().await.unwrap();
    assert!(created.get("oneTimePassword").is_none(), "a set password is not one-time");
    let id = created["user"]["id"].as_str().unwrap().to_owned();
    let found: Value = send(t, &admin, Method::GET, &format!("/api/admin/users?q=SHIFTER-{}", t.n(2)), None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(found["items"].as_array().unwrap().iter().map(|u| &u["id"]).collect::<Vec<_>>(), [&json!(id)]);

    // Demoted: the operator's token goes; a refresh gives a viewer's.
    let (operator, cookie) = sign_in(t, &username, PASSWORD).await;
    let register = |token: String| async move {
        send(t, &token, Method::POST, "/api/proxy/gateways/", Some(gateway_body(t.n(2)))).await.status()
    };
    let demoted = patch(t, &admin, &id, json!({"role": "viewer"})).await;
    assert_eq!(demoted.json::<Value>().await.unwrap()["role"], "viewer");
    refused_elsewhere(t, &operator).await;
    let refreshed = refresh(t, &cookie).await;
    assert_eq!(refreshed.status(), 200);
    let (cookie, _) = set_cookie(&refreshed);
    let viewer = refreshed.json::<Value>().await.unwrap()["accessToken"].as_str().unwrap().to_owned();
    assert_eq!(register(viewer.clone()).await, 403, "a viewer now");

    // Disabled: the token and the session go; enabled: signing in works again.
    let disabled = patch(t, &admin, &id, json!({"disabled": true})).await;
    assert_eq!(disabled.json::<Value>().await.unwrap()["disabled"], true);
    refused_elsewhere(t, &viewer).await;
    assert_eq!(refresh(t, &cookie).await.status(), 401);
    assert_eq!(login(t, &username, PASSWORD).await.status(), 401);
    patch(t, &admin, &id, json!({"disabled": false})).await;
    let (token, cookie) = sign_in(t, &username, PASSWORD).await;

    // Every session revoked.
    let revoked = send(t, &admin, Method::POST, &format!("/api/admin/users/{id}/revoke-sessions"), None).await;
    assert_eq!(revoked.status(), 204);
    refused_elsewhere(t, &token).await;
    assert_eq!(refresh(t, &cookie).await.status(), 401);

    // A reset: the old password goes, the one-time one must be changed.
    let reset = send(t, &admin, Method::POST, &format!("/api/admin/users/{id}/password-reset"), None).await;
    let one_time = reset.json::<Value>().await.unwrap()["oneTimePassword"].as_str().unwrap().to_owned();
    assert_eq!(login(t, &username, PASSWORD).await.status(), 401);
    let (token, _) = sign_in(t, &username, &one_time).await;
    assert_eq!(send(t, &token, Method::GET, ELSEWHERE, None).await.status(), 403);
}

pub async fn only_admins_administer_users(t: &Target) {
    for role in [Role::Operator, Role::Viewer] {
        let token = t.token(role);
        let id = "0123456789abcdef01234567";
        for (method, path, body) in [
            (Method::GET, "/api/admin/users".to_owned(), None),
            (Method::POST, "/api/admin/users".to_owned(), Some(json!({"username": "x", "role": "admin"}))),
            (Method::PATCH, format!("/api/admin/users/{id}"), Some(json!({"role": "admin"}))),
            (Method::POST, format!("/api/admin/users/{id}/password-reset"), None),
            (Method::POST, format!("/api/admin/users/{id}/revoke-sessions"), None),
        ] {
            let response = send(t, &token, method.clone(), &path, body).await;
            assert_eq!(response.status(), 403, "{role:?} {method} {path}");
            assert_eq!(response.json::<Value>().await.unwrap()["code"], "forbidden");
        }
    }
    let admin = t.token(Role::Admin);
    let bad = send(t, &admin, Method::POST, "/api/admin/users", Some(json!({"username": "ok", "role": "boss"}))).await;
    assert_eq!(bad.status(), 400);
    assert_eq!(
        bad.json::<Value>().await.unwrap()["fields"]["role"],
        "unknown role 'boss'; expected admin, operator or viewer"
    );
    let short = json!({"username": format!("pw-{}", t.n(3)), "role": "viewer", "password": "short"});
    let bad = send(t, &admin, Method::POST, "/api/admin/users", Some(short)).await;
    assert_eq!(bad.json::<Value>().await.unwrap()["fields"]["password"], "the password must be at least 8 characters");
    let unknown = patch(t, &admin, "0123456789abcdef01234567", json!({"role": "viewer"})).await;
    assert_eq!(unknown.status(), 404);
}

pub async fn a_user_keeps_their_language_and_theme(t: &Target) {
    let username = format!("prefs-{}", t.n(5));
    t.add_user(&username, PASSWORD, Role::Viewer).await;
    let (token, _) = sign_in(t, &username, PASSWORD).await;
    let me: Value = send(t, &token, Method::GET, "/api/auth/me", None).await.json().await.unwrap();
    assert_eq!(me["preferences"], json!({"language": null, "theme": "system"}), "nothing chosen yet");
    let chosen = json!({"language": "fr", "theme": "dark"});
    let saved = send(t, &token, Method::PUT, "/api/auth/preferences", Some(chosen.clone())).await;
    assert_eq!(saved.status(), 200);
    assert_eq!(saved.json::<Value>().await.unwrap(), chosen);
    let (again, _) = sign_in(t, &username, PASSWORD).await;
    let me: Value = send(t, &again, Method::GET, "/api/auth/me", None).await.json().await.unwrap();
    assert_eq!(me["preferences"], chosen, "kept for the next sign-in, from any browser");
    for bad in [json!({"language": "de", "theme": "dark"}), json!({"language": "fr", "theme": "pink"}), json!({})] {
        let response = send(t, &token, Method::PUT, "/api/auth/preferences", Some(bad.clone())).await;
        assert_eq!(response.status(), 400, "{bad}");
        assert_eq!(response.json::<Value>().await.unwrap()["code"], "invalid_json", "{bad}: the schema refuses it");
    }
}
