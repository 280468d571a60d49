//! Users on SQLite and PostgreSQL alike.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

use wm_auth::{
    AuthError, MIGRATIONS,
    domain::account::{Change, Refused},
    password::PasswordError,
    users,
};
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
async fn a_change_is_stored_with_a_raised_version_and_unknown_users_are_reported() {
    for db in databases().await {
        let leaver = users::create(&db, "leaver", "password-l", Role::Operator).await.unwrap();
        let (before, decision) = users::change(&db, &leaver.id, Change::Disable, "cli", None).await.unwrap();
        assert!(!before.disabled && decision.after.disabled);
        let stored = users::named(&db, "LEAVER").await.unwrap();
        assert_eq!((stored.disabled, stored.token_version), (true, 1));
        let hash = users::hash("a-new-password").await.unwrap();
        users::change(&db, &leaver.id, Change::Password { must_change: true }, "cli", Some(&hash)).await.unwrap();
        let stored = users::named(&db, "leaver").await.unwrap();
        assert_eq!((stored.must_change_password, stored.token_version), (true, 2));
        let ghost = users::change(&db, "0123456789abcdef01234567", Change::Disable, "cli", None).await;
        assert!(matches!(ghost, Err(AuthError::NoSuchUserId(_))), "{ghost:?}");
        assert!(matches!(users::named(&db, "ghost").await, Err(AuthError::NoSuchUser(_))));
    }
}

#[tokio::test]
async fn the_last_enabled_admin_is_kept_even_by_two_demotions_at_once() {
    for db in databases().await {
        let root = users::create(&db, "root", "password-r", Role::Admin).await.unwrap();
        let refused = users::change(&db, &root.id, Change::Role(Role::Viewer), "cli", None).await;
        assert!(matches!(refused, Err(AuthError::Refused(Refused::LastAdmin))), "{refused:?}");
        let second = users::create(&db, "second", "password-s", Role::Admin).await.unwrap();
        let (a, b) = tokio::join!(
            users::change(&db, &root.id, Change::Disable, &second.id, None),
            users::change(&db, &second.id, Change::Role(Role::Operator), &root.id, None),
        );
        assert_eq!(u8::from(a.is_ok()) + u8::from(b.is_ok()), 1, "{:?}: {a:?} {b:?}", db.backend());
        let admins = users::list(&db).await.unwrap().into_iter().filter(|u| u.role == Role::Admin && !u.disabled);
        assert_eq!(admins.count(), 1);
    }
}

#[tokio::test]
async fn a_search_finds_names_holding_the_text_in_any_case_and_takes_wildcards_literally() {
    for db in databases().await {
        for name in ["Ann", "joanna", "bob", "x_y", "x%y"] {
            users::create(&db, name, "password-x", Role::Viewer).await.unwrap();
        }
        let names = |found: Vec<users::User>| found.into_iter().map(|u| u.username).collect::<Vec<_>>();
        assert_eq!(names(users::search(&db, "ANN").await.unwrap()), ["Ann", "joanna"]);
        assert_eq!(names(users::search(&db, "_").await.unwrap()), ["x_y"]);
        assert_eq!(names(users::search(&db, "%").await.unwrap()), ["x%y"]);
        assert_eq!(users::search(&db, "").await.unwrap().len(), 5);
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
