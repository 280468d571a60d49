//! What an admin (today through `wmeter user`) does to accounts: create and
//! disable users. Each change is recorded as an auth event with its audit
//! record; the demo creates its own users the same way.

use chrono::Utc;
use serde_json::json;
use wm_eventlog::audit::Attempt;
use wm_http::auth::Role;
use wm_proto::{
    Payload,
    v1::{self, UserCreated, UserDisabled},
};
use wm_storage::Db;

use crate::{
    audit::Audit,
    error::AuthError,
    storage::sessions,
    users::{self, User},
};

/// The role recorded for changes made outside HTTP: whoever runs `wmeter
/// user` holds the database, which is more than an admin.
const LOCAL_ROLE: &str = "admin";

/// Creates a user (see [`users::create`]) and records who did it.
pub async fn create(
    db: &Db,
    audit: &Audit,
    actor: &str,
    username: &str,
    password: &str,
    role: Role,
) -> Result<User, AuthError> {
    let user = users::create(db, username, password, role).await?;
    let created =
        UserCreated { user_id: user.id.clone(), username: user.username.clone(), role: proto_role(role).into() };
    let record = attempt(actor, "user.create", &user).succeeded(None, Some(audit_json(&user)), Utc::now());
    audit.record_change(&user.id, actor, Payload::UserCreated(created), record).await?;
    Ok(user)
}

/// Disables a user and revokes every session they have, so a stolen or
/// open session cannot outlive the decision. Returns the user and how many
/// live refresh tokens were revoked.
pub async fn disable(db: &Db, audit: &Audit, actor: &str, username: &str) -> Result<(User, u64), AuthError> {
    let user = users::disable(db, username).await?;
    let revoked = sessions::end_all(db, &user.id, Utc::now()).await?;
    let before = User { disabled: false, ..user.clone() };
    let record =
        attempt(actor, "user.disable", &user).succeeded(Some(audit_json(&before)), Some(audit_json(&user)), Utc::now());
    let disabled = Payload::UserDisabled(UserDisabled { user_id: user.id.clone() });
    audit.record_change(&user.id, actor, disabled, record).await?;
    Ok((user, revoked))
}

/// The demo's users and their passwords, created only while no user exists:
/// `admin` (admin) and `viewer` (viewer). Returns what was created, so the
/// passwords can be shown once; empty when users already exist.
pub async fn ensure_demo_users(db: &Db, audit: &Audit) -> Result<Vec<(String, String)>, AuthError> {
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

fn attempt(actor: &str, action: &'static str, user: &User) -> Attempt {
    Attempt::new(actor, LOCAL_ROLE, None, action).on(&user.id)
}

/// A user as the audit trail shows it (never a password or its hash).
fn audit_json(user: &User) -> String {
    json!({"id": user.id, "username": user.username, "role": user.role.as_str(), "disabled": user.disabled}).to_string()
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
