//! Sign-in beyond the HTTP suite: the events a session leaves in the log,
//! the login throttle, and the demo's cookie.

use reqwest::StatusCode;
use serde_json::{Value, json};
use wm_auth::{SessionSettings, users};
use wm_http::auth::Role;
use wm_proto::{Payload, topics};
use wm_test_support::sessions::{PASSWORD, login, logout, refresh, set_cookie};

use crate::helpers::{TestApp, spawn_each};

async fn apps() -> Vec<TestApp> {
    let apps = spawn_each(SessionSettings::default()).await;
    for app in &apps {
        users::create(app.db(), "ann", PASSWORD, Role::Operator).await.unwrap();
    }
    apps
}

/// Ann signs in, refreshes and signs out; returns her id.
async fn in_refresh_and_out(app: &TestApp) -> String {
    let ann = users::create(app.db(), "ann", PASSWORD, Role::Operator).await.unwrap();
    let (cookie, _) = set_cookie(&login(app, "ann", PASSWORD).await);
    let (rotated, _) = set_cookie(&refresh(app, &cookie).await);
    assert_eq!(logout(app, &rotated).await.status(), 204);
    ann.id
}

/// Ann signs in and refreshes twice, then replays her first token.
async fn replay_a_rotated_token(app: &TestApp) {
    users::create(app.db(), "ann", PASSWORD, Role::Operator).await.unwrap();
    let (first, _) = set_cookie(&login(app, "ann", PASSWORD).await);
    let (second, _) = set_cookie(&refresh(app, &first).await);
    set_cookie(&refresh(app, &second).await);
    assert_eq!(refresh(app, &first).await.status(), 401);
}

#[tokio::test]
async fn a_session_s_sign_in_and_out_are_recorded_with_who_and_where() {
    for app in spawn_each(SessionSettings::default()).await {
        let user_id = in_refresh_and_out(&app).await;
        // The user's creation is recorded too, before; this test is about the session.
        let events: Vec<_> = app
            .events(topics::AUTH)
            .await
            .into_iter()
            .filter(|e| !matches!(e.payload, Some(Payload::UserCreated(_))))
            .collect();
        let seen: Vec<_> = events
            .iter()
            .map(|e| match e.payload.as_ref().unwrap() {
                Payload::UserLoggedIn(p) => ("in", p.user_id.as_str(), p.source_ip.as_str()),
                Payload::UserLoggedOut(p) => ("out", p.user_id.as_str(), p.source_ip.as_str()),
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        let user_id = user_id.as_str();
        assert_eq!(seen, [("in", user_id, "127.0.0.1"), ("out", user_id, "127.0.0.1")]);
        for event in &events {
            assert_eq!((event.actor.as_str(), event.device_id.as_str()), (user_id, user_id));
            assert!(event.occurred_at_utc().is_some());
        }
    }
}

#[tokio::test]
async fn a_replayed_refresh_token_is_recorded_once() {
    for app in spawn_each(SessionSettings::default()).await {
        replay_a_rotated_token(&app).await;
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
            wm_http::client::builder().local_address("127.0.0.2".parse::<std::net::IpAddr>().unwrap()).build().unwrap();
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
    let app = spawn_each(SessionSettings { secure_cookie: false, ..SessionSettings::default() }).await.remove(0);
    users::create(app.db(), "ann", PASSWORD, Role::Operator).await.unwrap();
    let (cookie, line) = set_cookie(&login(&app, "ann", PASSWORD).await);
    assert!(line.starts_with("wmeter_rt="), "{line}");
    assert!(!line.contains("Secure"), "{line}");
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/api/auth"] {
        assert!(line.contains(attribute), "{attribute} in {line}");
    }
    assert_eq!(refresh(&app, &cookie).await.status(), 200);
}
