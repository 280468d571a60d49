//! The JWT negative suite and the extractor over HTTP.

use actix_web::{App, HttpResponse, http::StatusCode, test as actix_test, web};
use base64::Engine;
use serde_json::{Value, json};

use super::*;

const KEY: &[u8] = b"0123456789abcdef0123456789abcdef";

fn tokens() -> AccessTokens {
    AccessTokens::new(KEY, JwtSettings::default()).unwrap()
}

fn now() -> u64 {
    jsonwebtoken::get_current_timestamp()
}

fn claims() -> Claims {
    let now = now();
    Claims {
        sub: "u1".into(),
        role: Role::Operator,
        typ: TokenType::Access,
        iss: "wmeter".into(),
        aud: "wmeter-api".into(),
        iat: now,
        nbf: now,
        exp: now + 900,
        ver: 0,
        chg: false,
    }
}

fn b64(value: &Value) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(value.to_string())
}

#[test]
fn a_fresh_token_verifies() {
    let t = tokens();
    let token = t.issue(&Subject::new("u1", Role::Viewer)).unwrap();
    let got = t.verify(&token).unwrap();
    assert_eq!((got.sub.as_str(), got.role, got.typ), ("u1", Role::Viewer, TokenType::Access));
    assert_eq!(got.exp - got.iat, 900);
}

#[test]
fn short_keys_are_refused() {
    assert_eq!(AccessTokens::new(b"short", JwtSettings::default()).unwrap_err(), KeyError::TooShort(5));
}

#[test]
fn a_tampered_payload_fails() {
    let token = tokens().issue(&Subject::new("u1", Role::Viewer)).unwrap();
    let mut parts: Vec<&str> = token.split('.').collect();
    let forged = b64(&json!({"sub": "u1", "role": "admin", "typ": "access", "iss": "wmeter", "aud": "wmeter-api",
                              "iat": now(), "nbf": now(), "exp": now() + 900}));
    parts[1] = &forged;
    assert!(matches!(tokens().verify(&parts.join(".")), Err(TokenError::Invalid(_))));
}

#[test]
fn alg_none_fails() {
    let header = b64(&json!({"alg": "none", "typ": "JWT"}));
    let payload = b64(&serde_json::to_value(claims()).unwrap());
    assert!(tokens().verify(&format!("{header}.{payload}.")).is_err());
}

#[test]
fn another_hmac_algorithm_fails_even_with_the_right_key() {
    let token = jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS512),
        &claims(),
        &jsonwebtoken::EncodingKey::from_secret(KEY),
    )
    .unwrap();
    assert!(matches!(tokens().verify(&token), Err(TokenError::Invalid(_))));
}

#[test]
fn expiry_is_checked_with_leeway() {
    let t = tokens();
    let within = Claims { exp: now() - 10, ..claims() };
    assert!(t.verify(&t.sign(&within).unwrap()).is_ok(), "10 s late is within the 30 s leeway");
    let beyond = Claims { exp: now() - 120, ..claims() };
    assert_eq!(t.verify(&t.sign(&beyond).unwrap()), Err(TokenError::Expired));
}

#[test]
fn not_yet_valid_fails() {
    let t = tokens();
    let early = Claims { nbf: now() + 600, ..claims() };
    assert!(t.verify(&t.sign(&early).unwrap()).is_err());
}

#[test]
fn wrong_audience_or_issuer_fails() {
    let t = tokens();
    for bad in [Claims { aud: "someone-else".into(), ..claims() }, Claims { iss: "evil".into(), ..claims() }] {
        assert!(matches!(t.verify(&t.sign(&bad).unwrap()), Err(TokenError::Invalid(_))), "{bad:?}");
    }
}

#[test]
fn a_missing_exp_fails() {
    let mut value = serde_json::to_value(claims()).unwrap();
    value.as_object_mut().unwrap().remove("exp");
    let token = jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        &value,
        &jsonwebtoken::EncodingKey::from_secret(KEY),
    )
    .unwrap();
    assert!(matches!(tokens().verify(&token), Err(TokenError::Invalid(_))));
}

#[test]
fn a_refresh_typed_token_is_not_an_access_token() {
    let t = tokens();
    let refresh = Claims { typ: TokenType::Refresh, ..claims() };
    assert_eq!(t.verify(&t.sign(&refresh).unwrap()), Err(TokenError::WrongType));
}

#[test]
fn a_token_signed_with_another_key_fails() {
    let other = AccessTokens::new(b"another-key-another-key-another-", JwtSettings::default()).unwrap();
    let token = other.issue(&Subject::new("u1", Role::Admin)).unwrap();
    assert!(matches!(tokens().verify(&token), Err(TokenError::Invalid(_))));
}

#[test]
fn garbage_is_refused_without_panicking() {
    for junk in ["", ".", "..", "a.b.c", "Bearer x", "\u{0}\u{1}", "eyJ.eyJ.x"] {
        assert!(tokens().verify(junk).is_err(), "{junk:?}");
    }
}

async fn mutate(caller: Caller) -> Result<HttpResponse, crate::ApiError> {
    caller.may_change_devices()?;
    Ok(HttpResponse::Ok().json(json!({"user": caller.user_id})))
}

#[actix_web::test]
async fn the_extractor_answers_401_403_or_lets_the_caller_in() {
    let t = tokens();
    let app = actix_test::init_service(
        App::new().app_data(web::Data::new(t.clone())).route("/api/thing", web::post().to(mutate)),
    )
    .await;
    let call = |auth: Option<String>| {
        let mut req = actix_test::TestRequest::post().uri("/api/thing");
        if let Some(auth) = auth {
            req = req.insert_header(("Authorization", auth));
        }
        req.to_request()
    };
    let cases = [
        (None, StatusCode::UNAUTHORIZED, "unauthorized"),
        (Some("Basic dTpw".to_owned()), StatusCode::UNAUTHORIZED, "unauthorized"),
        (Some("Bearer not-a-jwt".to_owned()), StatusCode::UNAUTHORIZED, "unauthorized"),
        (
            Some(format!("Bearer {}", t.issue(&Subject::new("v", Role::Viewer)).unwrap())),
            StatusCode::FORBIDDEN,
            "forbidden",
        ),
    ];
    for (auth, status, code) in cases {
        let response = actix_test::call_service(&app, call(auth.clone())).await;
        assert_eq!(response.status(), status, "{auth:?}");
        let body: Value = actix_test::read_body_json(response).await;
        assert_eq!(body["code"], code, "{auth:?}");
    }
    let operator = format!("bearer {}", t.issue(&Subject::new("op", Role::Operator)).unwrap());
    let response = actix_test::call_service(&app, call(Some(operator))).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = actix_test::read_body_json(response).await;
    assert_eq!(body, json!({"user": "op"}));
}

async fn read(caller: Caller) -> HttpResponse {
    HttpResponse::Ok().json(json!({"user": caller.user_id}))
}

#[actix_web::test]
async fn a_token_below_its_user_s_version_or_one_that_must_change_the_password_is_held_back() {
    let t = tokens();
    let app = actix_test::init_service(
        App::new()
            .app_data(web::Data::new(t.clone()))
            .route("/api/thing", web::get().to(read))
            .route("/api/auth/me", web::get().to(read)),
    )
    .await;
    let call = |token: &str, path: &str| {
        actix_test::TestRequest::get()
            .uri(path)
            .insert_header(("Authorization", format!("Bearer {token}")))
            .to_request()
    };
    let answer = |response: actix_web::dev::ServiceResponse| async move {
        let status = response.status();
        let body: Value = actix_test::read_body_json(response).await;
        (status, body["code"].as_str().unwrap_or("ok").to_owned(), body["message"].clone())
    };
    let one_time = t.issue(&Subject { must_change_password: true, ..Subject::new("bob", Role::Admin) }).unwrap();
    let forwarded = actix_test::call_service(&app, call(&one_time, "/api/thing")).await;
    assert_eq!(forwarded.status(), StatusCode::OK, "a process that follows no auth topic leaves it to the service");
    t.principals().following();
    t.principals().caught_up();
    let old = t.issue(&Subject { version: 1, ..Subject::new("ann", Role::Operator) }).unwrap();
    let current = t.issue(&Subject { version: 2, ..Subject::new("ann", Role::Operator) }).unwrap();
    t.principals().raise("ann", 2);
    let (status, code, message) = answer(actix_test::call_service(&app, call(&old, "/api/thing")).await).await;
    assert_eq!((status, code.as_str()), (StatusCode::UNAUTHORIZED, "unauthorized"));
    assert_eq!(message, "The access token was revoked; refresh it");
    assert_eq!(actix_test::call_service(&app, call(&current, "/api/thing")).await.status(), StatusCode::OK);

    let (status, code, _) = answer(actix_test::call_service(&app, call(&one_time, "/api/thing")).await).await;
    assert_eq!((status, code.as_str()), (StatusCode::FORBIDDEN, "password_change_required"));
    assert_eq!(actix_test::call_service(&app, call(&one_time, "/api/auth/me")).await.status(), StatusCode::OK);

    t.principals().following();
    let (status, code, _) = answer(actix_test::call_service(&app, call(&current, "/api/thing")).await).await;
    assert_eq!((status, code.as_str()), (StatusCode::SERVICE_UNAVAILABLE, "unavailable"), "not caught up yet");
}

/// Drops the `Authorization` header: what reaches the handler after it
/// carries no token to check again.
async fn without_token(
    mut req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody>,
) -> Result<actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    req.headers_mut().remove("Authorization");
    next.call(req).await
}

#[actix_web::test]
async fn a_handler_s_caller_is_the_one_the_guard_authenticated() {
    use actix_web::middleware::from_fn;
    let t = tokens();
    let app = actix_test::init_service(
        App::new()
            .app_data(web::Data::new(t.clone()))
            .wrap(from_fn(without_token))
            .wrap(from_fn(require_token))
            .route("/api/thing", web::get().to(read)),
    )
    .await;
    let token = t.issue(&Subject::new("ann", Role::Operator)).unwrap();
    let request =
        actix_test::TestRequest::get().uri("/api/thing").insert_header(("Authorization", format!("Bearer {token}")));
    let response = actix_test::call_service(&app, request.to_request()).await;
    assert_eq!(response.status(), StatusCode::OK, "the token is checked once, by the guard");
    let body: Value = actix_test::read_body_json(response).await;
    assert_eq!(body, json!({"user": "ann"}));
}
