//! Sign-in, refresh and logout over HTTP, on SQLite and PostgreSQL.

use reqwest::{Response, StatusCode};
use serde_json::{Value, json};
use wm_auth::storage::users;
use wm_http::auth::Role;
use wm_proto::{Payload, topics};

use crate::helpers::{TestApp, spawn_each};

const PASSWORD: &str = "a-long-password";

async fn apps() -> Vec<TestApp> {
    let apps = spawn_each(|_| {}).await;
    for app in &apps {
        users::create(app.db(), "ann", PASSWORD, Role::Operator).await.unwrap();
    }
    apps
}

async fn login(app: &TestApp, username: &str, password: &str) -> Response {
    app.client
        .post(format!("{}/api/auth/login", app.url))
        .json(&json!({"username": username, "password": password}))
        .send()
        .await
        .unwrap()
}

async fn refresh(app: &TestApp, cookie: &str) -> Response {
    app.client
        .post(format!("{}/api/auth/refresh", app.url))
        .header("Cookie", cookie)
        .header("X-WMeter-Refresh", "1")
        .send()
        .await
        .unwrap()
}

/// The `name=value` of the refresh cookie a response set, and its whole
/// `Set-Cookie` line.
fn set_cookie(response: &Response) -> (String, String) {
    let line = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|l| l.contains("wmeter_rt="))
        .expect("a refresh cookie")
        .to_owned();
    (line.split(';').next().unwrap().to_owned(), line)
}

#[tokio::test]
async fn login_refresh_logout_then_the_session_is_dead() {
    for app in apps().await {
        let signed_in = login(&app, "  ann ", PASSWORD).await;
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
        let uptime = app.client.get(format!("{}/api/proxy/", app.url)).bearer_auth(token).send().await.unwrap();
        assert_eq!(uptime.status(), 200, "the access token opens the API");

        let refreshed = refresh(&app, &cookie).await;
        assert_eq!(refreshed.status(), 200);
        let (rotated, _) = set_cookie(&refreshed);
        assert_ne!(rotated, cookie);
        assert!(refreshed.json::<Value>().await.unwrap()["accessToken"].is_string());

        let out =
            app.client.post(format!("{}/api/auth/logout", app.url)).header("Cookie", &rotated).send().await.unwrap();
        assert_eq!(out.status(), 204);
        assert!(set_cookie(&out).1.contains("Max-Age=0"), "logout clears the cookie");
        assert_eq!(refresh(&app, &rotated).await.status(), 401);

        let user_id = body["userId"].as_str().unwrap();
        let events = app.events(topics::AUTH).await;
        let seen: Vec<_> = events
            .iter()
            .map(|e| match e.payload.as_ref().unwrap() {
                Payload::UserLoggedIn(p) => ("in", p.user_id.as_str(), p.source_ip.as_str()),
                Payload::UserLoggedOut(p) => ("out", p.user_id.as_str(), p.source_ip.as_str()),
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        assert_eq!(seen, [("in", user_id, "127.0.0.1"), ("out", user_id, "127.0.0.1")]);
        for event in &events {
            assert_eq!((event.actor.as_str(), event.device_id.as_str()), (user_id, user_id));
            assert!(event.occurred_at_utc().is_some());
        }
    }
}

#[tokio::test]
async fn replaying_a_rotated_refresh_token_kills_the_family() {
    for app in apps().await {
        let (first, _) = set_cookie(&login(&app, "ann", PASSWORD).await);
        let (second, _) = set_cookie(&refresh(&app, &first).await);
        let (third, _) = set_cookie(&refresh(&app, &second).await);
        let replay = refresh(&app, &first).await;
        assert_eq!(replay.status(), 401);
        assert_eq!(refresh(&app, &third).await.status(), 401, "the newest token died with its family");

        let reuses: Vec<_> = app
            .events(topics::AUTH)
            .await
            .into_iter()
            .filter_map(|e| match e.payload {
                Some(Payload::RefreshTokenReused(p)) => Some(p),
                _ => None,
            })
            .collect();
        assert_eq!(reuses.len(), 1, "one reuse, recorded once");
        assert_eq!(reuses[0].source_ip, "127.0.0.1");
        assert_eq!(reuses[0].family_id.len(), 24);
    }
}

#[tokio::test]
async fn refresh_needs_the_custom_header_and_a_cookie() {
    for app in apps().await {
        let (cookie, _) = set_cookie(&login(&app, "ann", PASSWORD).await);
        let cross_site =
            app.client.post(format!("{}/api/auth/refresh", app.url)).header("Cookie", &cookie).send().await.unwrap();
        assert_eq!(cross_site.status(), 403);
        assert_eq!(cross_site.json::<Value>().await.unwrap()["code"], "csrf_header_required");
        let no_cookie = app
            .client
            .post(format!("{}/api/auth/refresh", app.url))
            .header("X-WMeter-Refresh", "1")
            .send()
            .await
            .unwrap();
        assert_eq!(no_cookie.status(), 401);
    }
}

#[tokio::test]
async fn failures_look_alike_whoever_the_user_is() {
    for app in apps().await {
        users::create(app.db(), "gone", PASSWORD, Role::Viewer).await.unwrap();
        users::disable(app.db(), "gone").await.unwrap();
        let expected = json!({"code": "invalid_credentials", "message": "Invalid credentials"});
        for (username, password) in [("ann", "wrong-password"), ("nobody", PASSWORD), ("gone", PASSWORD)] {
            let response = login(&app, username, password).await;
            assert_eq!(response.status(), 401, "{username}");
            assert!(response.headers().get("set-cookie").is_none());
            assert_eq!(response.json::<Value>().await.unwrap(), expected, "{username}");
        }
    }
}

#[tokio::test]
async fn the_eleventh_wrong_password_from_one_ip_is_throttled_but_not_the_real_user() {
    for app in apps().await {
        for attempt in 1..=10 {
            assert_eq!(login(&app, "ann", "wrong-password").await.status(), 401, "attempt {attempt}");
        }
        let throttled = login(&app, "ann", "wrong-password").await;
        assert_eq!(throttled.status(), StatusCode::TOO_MANY_REQUESTS);
        let wait: u64 = throttled.headers()["retry-after"].to_str().unwrap().parse().unwrap();
        assert!((1..=60).contains(&wait), "{wait}");
        assert_eq!(throttled.json::<Value>().await.unwrap()["code"], "too_many_requests");

        let elsewhere =
            reqwest::Client::builder().local_address("127.0.0.2".parse::<std::net::IpAddr>().unwrap()).build().unwrap();
        let real_user = elsewhere
            .post(format!("{}/api/auth/login", app.url))
            .json(&json!({"username": "ann", "password": PASSWORD}))
            .send()
            .await
            .unwrap();
        assert_eq!(real_user.status(), 200, "the real user signs in from another address");
    }
}

#[tokio::test]
async fn the_demo_cookie_is_not_secure_so_plain_http_browsers_keep_it() {
    let app = spawn_each(|s| s.auth.sessions.secure_cookie = false).await.remove(0);
    users::create(app.db(), "ann", PASSWORD, Role::Operator).await.unwrap();
    let (cookie, line) = set_cookie(&login(&app, "ann", PASSWORD).await);
    assert!(line.starts_with("wmeter_rt="), "{line}");
    assert!(!line.contains("Secure"), "{line}");
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/api/auth"] {
        assert!(line.contains(attribute), "{attribute} in {line}");
    }
    assert_eq!(refresh(&app, &cookie).await.status(), 200);
}
