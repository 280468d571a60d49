//! API keys over HTTP (docs/administration.md): made by an admin and shown
//! once, taken wherever an access token is, kept out of accounts and
//! administration unless they carry the admin role, and refused on the
//! very next request once revoked or expired, on whichever service
//! answers it.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use wm_http::auth::Role;

use super::{
    admin::{ELSEWHERE, PROPAGATION, send},
    eventually, gateway_body,
    target::Target,
};

/// Makes a key as `admin`; the key as listed, and the key itself.
async fn create(
    t: &Target,
    admin: &str,
    name: &str,
    role: &str,
    expires_at: chrono::DateTime<chrono::Utc>,
) -> (Value, String) {
    let body = json!({"name": name, "role": role, "expiresAt": expires_at.to_rfc3339()});
    let response = send(t, admin, Method::POST, "/api/admin/api-keys", Some(body)).await;
    let status = response.status();
    let created: Value = response.json().await.unwrap();
    assert_eq!(status, 201, "{name}: {created}");
    let secret = created["secret"].as_str().unwrap().to_owned();
    (created["key"].clone(), secret)
}

async fn listed(t: &Target, admin: &str, id: &str) -> Value {
    let list: Value = send(t, admin, Method::GET, "/api/admin/api-keys", None).await.json().await.unwrap();
    list["items"].as_array().unwrap().iter().find(|k| k["id"] == id).cloned().unwrap_or(Value::Null)
}

/// Waits up to [`PROPAGATION`] for `key` to be refused on another service
/// with `message`.
async fn refused_elsewhere(t: &Target, key: &str, message: &str) {
    let deadline = tokio::time::Instant::now() + PROPAGATION;
    loop {
        let response = send(t, key, Method::GET, ELSEWHERE, None).await;
        if response.status() == 401 {
            let error: Value = response.json().await.unwrap();
            assert_eq!((error["code"].as_str(), error["message"].as_str()), (Some("unauthorized"), Some(message)));
            return;
        }
        assert_eq!(response.status(), 200);
        assert!(tokio::time::Instant::now() < deadline, "the key still works after {PROPAGATION:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub async fn a_key_works_like_a_token_of_its_role_until_it_is_revoked(t: &Target) {
    let admin = t.token(Role::Admin);
    let name = format!("billing-{}", t.n(1));
    let expires = chrono::Utc::now() + chrono::TimeDelta::days(90);
    let (key, secret) = create(t, &admin, &format!("  {name} "), "operator", expires).await;
    let prefix = key["prefix"].as_str().unwrap();
    assert!(prefix.starts_with("wmk_") && secret.starts_with(&format!("{prefix}_")), "{prefix} {secret}");
    assert_eq!(
        (key["name"].as_str(), key["role"].as_str(), key["status"].as_str()),
        (Some(name.as_str()), Some("operator"), Some("active"))
    );
    assert_eq!(key["lastUsedAt"], Value::Null);
    let id = key["id"].as_str().unwrap().to_owned();

    // Wherever a token goes, as an operator: reads and changes devices.
    eventually("the new key to be known everywhere", || async {
        (send(t, &secret, Method::GET, ELSEWHERE, None).await.status() == 200).then_some(())
    })
    .await;
    let registered = send(t, &secret, Method::POST, "/api/proxy/gateways/", Some(gateway_body(t.n(1)))).await;
    assert_eq!(registered.status(), 201, "an operator's key registers a gateway");
    // Never the accounts or the administration, without the admin role.
    for path in ["/api/auth/me", "/api/admin/users", "/api/admin/api-keys", "/api/audit"] {
        let response = send(t, &secret, Method::GET, path, None).await;
        assert_eq!(response.status(), 403, "{path}");
        assert_eq!(response.json::<Value>().await.unwrap()["code"], "api_key_not_allowed", "{path}");
    }
    // The list never holds the key again, nor its digest.
    let shown = listed(t, &admin, &id).await;
    assert_eq!(shown["prefix"], prefix);
    assert!(!shown.to_string().contains(&secret[prefix.len() + 1..]), "{shown}");

    let revoked = send(t, &admin, Method::POST, &format!("/api/admin/api-keys/{id}/revoke"), None).await;
    assert_eq!(revoked.status(), 200);
    let revoked: Value = revoked.json().await.unwrap();
    assert_eq!(revoked["status"], "revoked");
    assert!(revoked["revokedAt"].is_string());
    refused_elsewhere(t, &secret, "The API key was revoked").await;
    let again = send(t, &admin, Method::POST, &format!("/api/admin/api-keys/{id}/revoke"), None).await;
    assert_eq!(
        again.json::<Value>().await.unwrap()["revokedAt"],
        revoked["revokedAt"],
        "revoking twice changes nothing"
    );

    // Both changes are on the trail, with the key's id as their target.
    let (admin, path) = (&admin, &format!("/api/audit?target={id}"));
    let actions = eventually("the key's trail", || async move {
        let trail: Value = send(t, admin, Method::GET, path, None).await.json().await.unwrap();
        let mut actions: Vec<String> =
            trail["entries"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap().to_owned()).collect();
        actions.sort_unstable();
        (actions.len() == 3).then_some(actions)
    })
    .await;
    assert_eq!(actions, ["api-key.create", "api-key.revoke", "api-key.revoke"]);
}

pub async fn a_key_shows_when_and_where_it_was_last_used(t: &Target) {
    let admin = t.token(Role::Admin);
    let expires = chrono::Utc::now() + chrono::TimeDelta::days(30);
    let (key, secret) = create(t, &admin, &format!("scada-{}", t.n(2)), "viewer", expires).await;
    let id = key["id"].as_str().unwrap();
    let before = chrono::Utc::now();
    eventually("the key to be taken", || async {
        (send(t, &secret, Method::GET, ELSEWHERE, None).await.status() == 200).then_some(())
    })
    .await;
    let shown = eventually("the key's use to be reported", || async {
        let shown = listed(t, &admin, id).await;
        shown["lastUsedAt"].is_string().then_some(shown)
    })
    .await;
    let used = chrono::DateTime::parse_from_rfc3339(shown["lastUsedAt"].as_str().unwrap()).unwrap();
    assert!(used >= before - chrono::TimeDelta::seconds(1), "{used} {before}");
    assert_eq!(shown["lastUsedAddress"], "127.0.0.1");
    let viewer = send(t, &secret, Method::POST, "/api/proxy/gateways/", Some(gateway_body(t.n(2)))).await;
    assert_eq!(viewer.status(), 403, "a viewer's key reads only");
}

pub async fn a_key_is_refused_once_it_expires(t: &Target) {
    let admin = t.token(Role::Admin);
    let expires = chrono::Utc::now() + chrono::TimeDelta::seconds(3);
    let (_, secret) = create(t, &admin, &format!("short-{}", t.n(3)), "viewer", expires).await;
    eventually("the key to be taken", || async {
        (send(t, &secret, Method::GET, ELSEWHERE, None).await.status() == 200).then_some(())
    })
    .await;
    tokio::time::sleep((expires - chrono::Utc::now()).to_std().unwrap_or_default()).await;
    let response = send(t, &secret, Method::GET, ELSEWHERE, None).await;
    assert_eq!(response.status(), 401);
    assert_eq!(response.json::<Value>().await.unwrap()["message"], "The API key has expired");
    let unknown = send(t, "wmk_aaaaaaaa_nope", Method::GET, ELSEWHERE, None).await;
    assert_eq!(unknown.json::<Value>().await.unwrap()["message"], "The API key is invalid");
}

pub async fn an_admin_key_administers_but_has_no_account(t: &Target) {
    let admin = t.token(Role::Admin);
    let expires = chrono::Utc::now() + chrono::TimeDelta::days(1);
    let (_, secret) = create(t, &admin, &format!("ops-{}", t.n(4)), "admin", expires).await;
    let users = eventually("the key to be known", || async {
        let response = send(t, &secret, Method::GET, "/api/admin/users", None).await;
        (response.status() == 200).then_some(response)
    })
    .await;
    assert!(users.json::<Value>().await.unwrap()["items"].is_array());
    let me = send(t, &secret, Method::GET, "/api/auth/me", None).await;
    assert_eq!(me.status(), 403);
    assert_eq!(me.json::<Value>().await.unwrap()["message"], "An API key has no account of its own; sign in as a user");
}

pub async fn only_admins_make_keys_and_bad_ones_say_why(t: &Target) {
    for role in [Role::Operator, Role::Viewer] {
        let token = t.token(role);
        for (method, path) in [
            (Method::GET, "/api/admin/api-keys"),
            (Method::POST, "/api/admin/api-keys"),
            (Method::POST, "/api/admin/api-keys/0123456789abcdef01234567/revoke"),
        ] {
            let body = (method == Method::POST)
                .then(|| json!({"name": "x", "role": "viewer", "expiresAt": "2030-01-01T00:00:00Z"}));
            let response = send(t, &token, method.clone(), path, body).await;
            assert_eq!(response.status(), 403, "{role:?} {method} {path}");
        }
    }
    let admin = t.token(Role::Admin);
    for (body, field, message) in [
        (
            json!({"name": " ", "role": "viewer", "expiresAt": "2030-01-01T00:00:00Z"}),
            "name",
            "The name must be 1 to 100 characters, without control characters",
        ),
        (
            json!({"name": "x", "role": "boss", "expiresAt": "2030-01-01T00:00:00Z"}),
            "role",
            "unknown role 'boss'; expected admin, operator or viewer",
        ),
        (
            json!({"name": "x", "role": "viewer", "expiresAt": "2020-01-01T00:00:00Z"}),
            "expiresAt",
            "The expiry must be in the future",
        ),
        (
            json!({"name": "x", "role": "viewer", "expiresAt": "2999-01-01T00:00:00Z"}),
            "expiresAt",
            "The expiry must be at most 730 days ahead",
        ),
        (
            json!({"name": "x", "role": "viewer", "expiresAt": "soon"}),
            "expiresAt",
            "The expiry must be an RFC 3339 time, such as 2027-06-30T00:00:00Z",
        ),
    ] {
        let response = send(t, &admin, Method::POST, "/api/admin/api-keys", Some(body.clone())).await;
        assert_eq!(response.status(), 400, "{body}");
        let error: Value = response.json().await.unwrap();
        assert_eq!(
            (error["code"].as_str(), error["fields"][field].as_str()),
            (Some("validation_failed"), Some(message)),
            "{body}"
        );
    }
    let unknown = send(t, &admin, Method::POST, "/api/admin/api-keys/0123456789abcdef01234567/revoke", None).await;
    assert_eq!(unknown.status(), 404);
}
