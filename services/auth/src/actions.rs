//! What an admin does to accounts, over HTTP (`/api/admin/users`) or with
//! `wmeter user`, and what a user does to their own password. Each change
//! is an auth event with its audit record; a change that ends the user's
//! sessions also revokes their refresh tokens and raises their token
//! version, which every process follows (`principals`). The demo creates
//! its own users the same way.

use std::net::IpAddr;

use chrono::Utc;
use serde_json::json;
use wm_eventlog::audit::Attempt;
use wm_http::auth::{Principals, Role};
use wm_proto::{
    Payload,
    v1::{self, UserCreated, UserDisabled, UserEnabled, UserPasswordSet, UserRoleChanged, UserSessionsRevoked},
};
use wm_storage::Db;

use crate::{
    audit::Audit,
    domain::account::{Change, Decision},
    error::AuthError,
    storage::sessions,
    users::{self, User},
};

/// Who makes a change: a signed-in user, the CLI or the system.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    pub id: String,
    /// The role the audit trail records.
    pub role: &'static str,
    pub source_ip: Option<IpAddr>,
}

impl Actor {
    /// Whoever runs `wmeter user` holds the database, which is more than an
    /// admin; the demo's own users are made by the system.
    pub fn local(id: &str) -> Self {
        Self { id: id.to_owned(), role: "admin", source_ip: None }
    }

    pub(crate) fn attempt(&self, action: &'static str, target: &str) -> Attempt {
        Attempt::new(&self.id, self.role, self.source_ip, action).on(target)
    }
}

/// Creates a user (see [`users::create`]) and records who did it. With
/// `one_time`, the user must change the password at their first sign-in.
pub async fn create(
    db: &Db,
    audit: &Audit,
    actor: &Actor,
    (username, password, role): (&str, &str, Role),
    one_time: bool,
) -> Result<User, AuthError> {
    let user = if one_time {
        users::create_one_time(db, username, password, role).await?
    } else {
        users::create(db, username, password, role).await?
    };
    let created =
        UserCreated { user_id: user.id.clone(), username: user.username.clone(), role: proto_role(role).into() };
    let record = actor.attempt("user.create", &user.id).succeeded(None, Some(audit_json(&user)), Utc::now());
    audit.record_change(&user.id, &actor.id, Payload::UserCreated(created), record).await?;
    Ok(user)
}

/// Where a change is made, recorded and followed: the database, the auth
/// topic, and this process's token versions.
pub type Stores<'a> = (&'a Db, &'a Audit, &'a Principals);

/// Applies `change` to the user `id`: see [`users::change`]. A refusal
/// (the last admin, one's own account) is audited too. `principals` are
/// this process's token versions, raised at once; other processes follow
/// the event.
pub async fn change(
    (db, audit, principals): Stores<'_>,
    actor: &Actor,
    id: &str,
    change: Change,
    new_password: Option<&str>,
) -> Result<User, AuthError> {
    let hash = match new_password {
        Some(password) => Some(users::hash(password).await?),
        None => None,
    };
    let (before, Decision { after, changed }) = match users::change(db, id, change, &actor.id, hash.as_deref()).await {
        Err(AuthError::Refused(refusal)) => {
            audit
                .publish(actor.attempt(change.action(), id).refused(refusal.code(), &refusal.to_string(), Utc::now()))
                .await;
            return Err(AuthError::Refused(refusal));
        }
        other => other?,
    };
    if !changed {
        return Ok(after);
    }
    if change.ends_sessions() {
        sessions::end_all(db, id, Utc::now()).await?;
    }
    if change.revokes() {
        principals.raise(id, after.token_version);
    }
    let record =
        actor.attempt(change.action(), id).succeeded(Some(audit_json(&before)), Some(audit_json(&after)), Utc::now());
    audit.record_change(id, &actor.id, event(change, &before, &after), record).await?;
    Ok(after)
}

/// Disables the user named `username` (`wmeter user disable`), as
/// [`change`] does. The calling process serves no one: the running
/// services follow the event.
pub async fn disable_named(db: &Db, audit: &Audit, actor: &Actor, username: &str) -> Result<User, AuthError> {
    let user = users::named(db, username).await?;
    change((db, audit, &Principals::default()), actor, &user.id, Change::Disable, None).await
}

/// The auth event a change is.
fn event(change: Change, before: &User, after: &User) -> Payload {
    let (user_id, token_version) = (after.id.clone(), after.token_version);
    match change {
        Change::Role(role) => Payload::UserRoleChanged(UserRoleChanged {
            user_id,
            previous_role: proto_role(before.role).into(),
            role: proto_role(role).into(),
            token_version,
        }),
        Change::Disable => Payload::UserDisabled(UserDisabled { user_id, token_version }),
        Change::Enable => Payload::UserEnabled(UserEnabled { user_id, token_version }),
        Change::RevokeSessions => Payload::UserSessionsRevoked(UserSessionsRevoked { user_id, token_version }),
        Change::Password { must_change } => {
            Payload::UserPasswordSet(UserPasswordSet { user_id, token_version, must_change })
        }
    }
}

/// The demo's users and their passwords, created only while no user exists:
/// `admin` (admin) and `viewer` (viewer). Returns what was created, so the
/// passwords can be shown once; empty when users already exist.
pub async fn ensure_demo_users(db: &Db, audit: &Audit) -> Result<Vec<(String, String)>, AuthError> {
    if !users::list(db).await?.is_empty() {
        return Ok(Vec::new());
    }
    let mut created = Vec::new();
    let system = Actor::local(crate::audit::SYSTEM_ACTOR);
    for (username, role) in [("admin", Role::Admin), ("viewer", Role::Viewer)] {
        let password = random_password();
        create(db, audit, &system, (username, &password, role), false).await?;
        created.push((username.to_owned(), password));
    }
    Ok(created)
}

/// A user as the audit trail shows it (never a password or its hash).
fn audit_json(user: &User) -> String {
    json!({"id": user.id, "username": user.username, "role": user.role.as_str(), "disabled": user.disabled,
           "mustChangePassword": user.must_change_password})
    .to_string()
}

/// The event schema's spelling of a role.
pub(crate) fn proto_role(role: Role) -> v1::Role {
    match role {
        Role::Admin => v1::Role::Admin,
        Role::Operator => v1::Role::Operator,
        Role::Viewer => v1::Role::Viewer,
    }
}

/// 16 characters from an alphabet without look-alikes (no 0/O, 1/l/I): the
/// demo's passwords and the one-time passwords admins hand out.
pub fn random_password() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    (0..16).map(|_| char::from(ALPHABET[rand::random_range(0..ALPHABET.len())])).collect()
}
