//! Users: who may sign in, with which role. The rules a username and a
//! password must follow are checked here, before anything is stored.

use chrono::{DateTime, Utc};
use wm_domain::DeviceId;
use wm_http::auth::Role;
use wm_storage::{Db, StorageError};

pub use crate::domain::user::User;
use crate::{
    domain::{
        account::{self, Change, Decision},
        user::normalize_username,
    },
    error::AuthError,
    password,
    storage::users as stored,
};

/// Creates a user with `password` hashed (argon2id, off the async threads).
/// Usernames are unique regardless of case, enforced by the database so
/// that two concurrent creations cannot both succeed.
pub async fn create(db: &Db, username: &str, password: &str, role: Role) -> Result<User, AuthError> {
    insert(db, username, password, role, false).await
}

/// Creates a user whose `password` is one-time: they must change it when
/// they first sign in.
pub async fn create_one_time(db: &Db, username: &str, password: &str, role: Role) -> Result<User, AuthError> {
    insert(db, username, password, role, true).await
}

async fn insert(db: &Db, username: &str, password: &str, role: Role, one_time: bool) -> Result<User, AuthError> {
    let username = normalize_username(username)?.to_owned();
    let hash = hash(password).await?;
    let user = User {
        id: DeviceId::new().to_string(),
        username,
        role,
        disabled: false,
        created_at: DateTime::from_timestamp_micros(Utc::now().timestamp_micros()).unwrap_or_default(),
        token_version: 0,
        must_change_password: one_time,
    };
    match stored::insert(db, &user, &hash).await {
        Ok(()) => Ok(user),
        Err(StorageError::Taken { .. }) => Err(AuthError::UsernameTaken(user.username)),
        Err(e) => Err(e.into()),
    }
}

/// `password` hashed with argon2id, off the async threads; a password that
/// breaks the rules is refused.
pub async fn hash(password: &str) -> Result<String, AuthError> {
    let password = password.to_owned();
    Ok(tokio::task::spawn_blocking(move || password::hash(&password)).await??)
}

/// Every user, by username.
pub async fn list(db: &Db) -> Result<Vec<User>, AuthError> {
    Ok(stored::list(db).await?)
}

/// The users whose name holds `text`, in any case, by username.
pub async fn search(db: &Db, text: &str) -> Result<Vec<User>, AuthError> {
    Ok(stored::search(db, text.trim()).await?)
}

/// The user named `username` (any case).
pub async fn named(db: &Db, username: &str) -> Result<User, AuthError> {
    let username = normalize_username(username)?;
    let found = stored::find_for_login(db, username).await?;
    found.map(|(user, _)| user).ok_or_else(|| AuthError::NoSuchUser(username.to_owned()))
}

/// The user with this id.
pub async fn by_id(db: &Db, id: &str) -> Result<User, AuthError> {
    stored::find(db, id).await?.ok_or_else(|| AuthError::NoSuchUserId(id.to_owned()))
}

/// Applies `change` to the user `id`, asked by `actor`, in one transaction
/// with the enabled admins locked (the last-admin rule holds under
/// concurrent changes). `password_hash` goes with a password change.
/// Returns the user before and the decision.
pub async fn change(
    db: &Db,
    id: &str,
    change: Change,
    actor: &str,
    password_hash: Option<&str>,
) -> Result<(User, Decision), AuthError> {
    let mut tx = db.begin_write().await?;
    let admins = stored::enabled_admins(&mut tx).await?;
    let before = stored::find_in(&mut tx, id).await?.ok_or_else(|| AuthError::NoSuchUserId(id.to_owned()))?;
    let decision = account::decide(&before, change, actor, admins)?;
    if decision.changed {
        stored::save(&mut tx, &decision.after, password_hash).await?;
    }
    tx.commit().await?;
    Ok((before, decision))
}
