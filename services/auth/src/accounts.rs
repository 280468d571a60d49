//! Account operations that span tables, each recorded as an auth event.

use chrono::Utc;
use wm_http::auth::Role;
use wm_proto::{
    Payload,
    v1::{self, UserCreated, UserDisabled},
};
use wm_storage::Db;

use crate::{
    audit::Audit,
    storage::{
        sessions::{self, SessionError},
        users::{self, User, UserError},
    },
};

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error(transparent)]
    User(#[from] UserError),
    #[error(transparent)]
    Session(#[from] SessionError),
}

/// Creates a user (see [`users::create`]) and records who did it.
pub async fn create(
    db: &Db,
    audit: &Audit,
    actor: &str,
    username: &str,
    password: &str,
    role: Role,
) -> Result<User, AccountError> {
    let user = users::create(db, username, password, role).await?;
    let created =
        UserCreated { user_id: user.id.clone(), username: user.username.clone(), role: proto_role(role).into() };
    audit.record(&user.id, actor, Payload::UserCreated(created)).await;
    Ok(user)
}

/// Disables a user and revokes every session they have, so a stolen or
/// open session cannot outlive the decision. Returns the user and how many
/// live refresh tokens were revoked.
pub async fn disable(db: &Db, audit: &Audit, actor: &str, username: &str) -> Result<(User, u64), AccountError> {
    let user = users::disable(db, username).await?;
    let revoked = sessions::end_all(db, &user.id, Utc::now()).await?;
    audit.record(&user.id, actor, Payload::UserDisabled(UserDisabled { user_id: user.id.clone() })).await;
    Ok((user, revoked))
}

/// The demo's users and their passwords, created only while no user exists:
/// `admin` (admin) and `viewer` (viewer). Returns what was created, so the
/// passwords can be shown once; empty when users already exist.
pub async fn ensure_demo_users(db: &Db, audit: &Audit) -> Result<Vec<(String, String)>, AccountError> {
    if !users::list(db).await?.is_empty() {
        return Ok(Vec::new());
    }
    let mut created = Vec::new();
    for (username, role) in [("admin", Role::Admin), ("viewer", Role::Viewer)] {
        let password = random_password();
        create(db, audit, crate::audit::SYSTEM_ACTOR, username, &password, role).await?;
        created.push((username.to_owned(), password));
    }
    Ok(created)
}

/// The event schema's spelling of a role.
fn proto_role(role: Role) -> v1::Role {
    match role {
        Role::Admin => v1::Role::Admin,
        Role::Operator => v1::Role::Operator,
        Role::Viewer => v1::Role::Viewer,
    }
}

/// 16 characters from an alphabet without look-alikes (no 0/O, 1/l/I).
fn random_password() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    (0..16).map(|_| char::from(ALPHABET[rand::random_range(0..ALPHABET.len())])).collect()
}
