//! Users on SQLite and PostgreSQL alike.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

use wm_auth::{AuthError, MIGRATIONS, password::PasswordError, users};
use wm_http::auth::Role;
use wm_test_support::TestDb;

async fn databases() -> Vec<TestDb> {
    let all = TestDb::each().await;
    for db in &all {
        db.migrate(&MIGRATIONS).await.unwrap();
    }
    all
}

#[tokio::test]
async fn created_users_are_listed_by_name() {
    for db in databases().await {
        users::create(&db, "  zoe ", "password-z", Role::Viewer).await.unwrap();
        let admin = users::create(&db, "Admin", "password-a", Role::Admin).await.unwrap();
        assert_eq!(admin.id.len(), 24);
        let listed = users::list(&db).await.unwrap();
        let names: Vec<_> = listed.iter().map(|u| (u.username.as_str(), u.role, u.disabled)).collect();
        assert_eq!(names, [("Admin", Role::Admin, false), ("zoe", Role::Viewer, false)], "{:?}", db.backend());
        assert_eq!(listed[0], admin, "what is stored is what was returned");
    }
}

#[tokio::test]
async fn usernames_are_unique_whatever_their_case() {
    for db in databases().await {
        users::create(&db, "operator", "password-1", Role::Operator).await.unwrap();
        let err = users::create(&db, "OPERATOR", "password-2", Role::Viewer).await.unwrap_err();
        assert!(matches!(err, AuthError::UsernameTaken(ref name) if name == "OPERATOR"), "{err:?}");
    }
}

#[tokio::test]
async fn concurrent_creations_of_one_name_give_one_user() {
    for db in databases().await {
        let (a, b) = tokio::join!(
            users::create(&db, "twin", "password-a", Role::Viewer),
            users::create(&db, "twin", "password-b", Role::Viewer)
        );
        assert_eq!(u8::from(a.is_ok()) + u8::from(b.is_ok()), 1, "{:?}: {a:?} {b:?}", db.backend());
        assert_eq!(users::list(&db).await.unwrap().len(), 1);
    }
}

#[tokio::test]
async fn disabling_marks_the_user_and_unknown_users_are_reported() {
    for db in databases().await {
        users::create(&db, "leaver", "password-l", Role::Operator).await.unwrap();
        let disabled = users::disable(&db, "LEAVER").await.unwrap();
        assert!(disabled.disabled);
        assert!(users::list(&db).await.unwrap()[0].disabled);
        assert!(matches!(users::disable(&db, "ghost").await, Err(AuthError::NoSuchUser(_))));
    }
}

#[tokio::test]
async fn bad_usernames_and_weak_passwords_are_refused() {
    for db in databases().await {
        for name in ["", "   ", "tab\there", &"x".repeat(65)] {
            assert!(matches!(
                users::create(&db, name, "password-x", Role::Viewer).await,
                Err(AuthError::InvalidUsername)
            ));
        }
        let err = users::create(&db, "shorty", "1234567", Role::Viewer).await.unwrap_err();
        assert!(matches!(err, AuthError::Password(PasswordError::TooShort)), "{err:?}");
        assert!(users::list(&db).await.unwrap().is_empty());
    }
}
