//! The JWT negative suite over real HTTP: every bad access token gets a
//! JSON 401 from a protected route.

use base64::Engine;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};

use super::target::Target;

fn now() -> u64 {
    jsonwebtoken::get_current_timestamp()
}

/// Valid claims for an operator; each case spoils one thing.
fn claims() -> Value {
    json!({"sub": "u1", "role": "operator", "typ": "access", "iss": "wmeter", "aud": "wmeter-api",
           "iat": now(), "nbf": now(), "exp": now() + 900})
}

fn sign_with(claims: &Value, key: &[u8]) -> String {
    jsonwebtoken::encode(&Header::new(Algorithm::HS256), claims, &EncodingKey::from_secret(key)).unwrap()
}

fn with(field: &str, value: Value) -> Value {
    let mut claims = claims();
    claims[field] = value;
    claims
}

fn b64(value: &Value) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(value.to_string())
}

fn bad_tokens(key: &[u8]) -> Vec<(&'static str, String)> {
    let sign = |claims: &Value| sign_with(claims, key);
    let good = sign(&claims());
    let mut parts: Vec<String> = good.split('.').map(str::to_owned).collect();
    parts[1] = b64(&with("role", json!("admin")));
    let tampered = parts.join(".");
    let mut no_exp = claims();
    no_exp.as_object_mut().unwrap().remove("exp");
    vec![
        ("a tampered payload", tampered),
        ("alg none", format!("{}.{}.", b64(&json!({"alg": "none", "typ": "JWT"})), b64(&claims()))),
        ("expired beyond the leeway", sign(&with("exp", json!(now() - 120)))),
        ("not valid yet", sign(&with("nbf", json!(now() + 600)))),
        ("the wrong audience", sign(&with("aud", json!("someone-else")))),
        ("the wrong issuer", sign(&with("iss", json!("evil")))),
        ("no exp", sign(&no_exp)),
        ("a refresh token", sign(&with("typ", json!("refresh")))),
        ("another key", sign_with(&claims(), b"another-key-another-key-another-key")),
        ("garbage", "not.a.jwt".to_owned()),
    ]
}

async fn uptime_with(t: &Target, token: &str) -> reqwest::Response {
    t.client.get(format!("{}/api/proxy/", t.url)).bearer_auth(token).send().await.unwrap()
}

pub async fn every_bad_access_token_gets_a_json_401(t: &Target) {
    let unspoiled = sign_with(&claims(), t.jwt_key());
    assert_eq!(uptime_with(t, &unspoiled).await.status(), 200, "the unspoiled token works");
    for (case, token) in bad_tokens(t.jwt_key()) {
        let response = uptime_with(t, &token).await;
        assert_eq!(response.status(), 401, "{case}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], "unauthorized", "{case}");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()), "{case}");
    }
}
