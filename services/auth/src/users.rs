//! Users: who may sign in, with which role. The rules a username and a
//! password must follow are checked here, before anything is stored.

use chrono::{DateTime, Utc};
use wm_domain::DeviceId;
use wm_http::auth::Role;
use wm_storage::{Db, StorageError};

pub use crate::domain::user::User;
use crate::{domain::user::normalize_username, error::AuthError, password, storage::users as stored};

/// Creates a user with `password` hashed (argon2id, off the async threads).
/// Usernames are unique regardless of case, enforced by the database so
/// that two concurrent creations cannot both succeed.
pub async fn create(db: &Db, username: &str, password: &str, role: Role) -> Result<User, AuthError> {
    let username = normalize_username(username)?.to_owned();
    let password = password.to_owned();
    let hash = tokio::task::spawn_blocking(move || password::hash(&password)).await??;
    let user = User {
        id: DeviceId::new().to_string(),
        username,
        role,
        disabled: false,
        created_at: DateTime::from_timestamp_micros(Utc::now().timestamp_micros()).unwrap_or_default(),
    };
    match stored::insert(db, &user, &hash).await {
        Ok(()) => Ok(user),
        Err(StorageError::Taken { .. }) => Err(AuthError::UsernameTaken(user.username)),
        Err(e) => Err(e.into()),
    }
}

/// Every user, by username.
pub async fn list(db: &Db) -> Result<Vec<User>, AuthError> {
    Ok(stored::list(db).await?)
}

/// Marks a user disabled: they can no longer sign in.
pub async fn disable(db: &Db, username: &str) -> Result<User, AuthError> {
    let username = normalize_username(username)?;
    stored::disable(db, username).await?.ok_or_else(|| AuthError::NoSuchUser(username.to_owned()))
}
