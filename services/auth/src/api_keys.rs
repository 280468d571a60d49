//! What an admin does to API keys (`/api/admin/api-keys`,
//! docs/administration.md): make one, shown once, and revoke it. Each is an
//! auth event with its audit record; every process follows the events into
//! its key ring (`principals`), this one at once.

use chrono::{DateTime, Utc};
use serde_json::json;
use wm_domain::DeviceId;
use wm_http::auth::{
    Role,
    api_keys::{KeyGrant, digest},
};
use wm_proto::{
    Payload,
    time::to_timestamp,
    v1::{ApiKeyCreated, ApiKeyRevoked},
};

use crate::{
    actions::{Actor, Stores, proto_role},
    domain::api_key::{self, ApiKey},
    error::AuthError,
    storage::api_keys as stored,
};

/// A key as listed: the key and its creator's username.
pub type Listed = (ApiKey, Option<String>);

/// Every key, newest first.
pub async fn list(db: &wm_storage::Db) -> Result<Vec<Listed>, AuthError> {
    Ok(stored::list(db).await?)
}

/// Makes a key named `name` with `role`, valid until `expires_at`. Returns
/// it and the key itself, which is never seen again.
pub async fn create(
    (db, audit, principals): Stores<'_>,
    actor: &Actor,
    (name, role, expires_at): (&str, Role, DateTime<Utc>),
) -> Result<(Listed, String), AuthError> {
    let now = Utc::now();
    let name = api_key::check_new(name, expires_at, now).map_err(AuthError::InvalidApiKey)?;
    let (secret, prefix) = api_key::generate();
    let key = ApiKey {
        id: DeviceId::new().to_string(),
        name,
        prefix,
        role,
        created_at: now,
        created_by: actor.id.clone(),
        expires_at,
        revoked_at: None,
        last_used_at: None,
        last_used_address: None,
    };
    let key_digest = digest(&secret);
    stored::insert(db, &key, &key_digest).await?;
    principals.keys.grant(&key_digest, KeyGrant { id: key.id.clone(), role, expires_at });
    let created = ApiKeyCreated {
        key_id: key.id.clone(),
        name: key.name.clone(),
        role: proto_role(role).into(),
        prefix: key.prefix.clone(),
        key_digest,
        expires_at: Some(to_timestamp(expires_at)),
        created_by: actor.id.clone(),
    };
    let record = actor.attempt("api-key.create", &key.id).succeeded(None, Some(audit_json(&key)), now);
    audit.record_change(&key.id, &actor.id, Payload::ApiKeyCreated(created), record).await?;
    let creator = crate::users::by_id(db, &actor.id).await.ok().map(|u| u.username);
    Ok(((key, creator), secret))
}

/// Revokes the key `id`: refused from the next request on, everywhere.
/// Revoking a revoked key publishes the event again (a retry after a
/// failed publish) and changes nothing else.
pub async fn revoke((db, audit, principals): Stores<'_>, actor: &Actor, id: &str) -> Result<Listed, AuthError> {
    let (before, _) = stored::find(db, id).await?.ok_or_else(|| AuthError::NoSuchApiKey(id.to_owned()))?;
    let now = Utc::now();
    stored::revoke(db, id, now).await?;
    principals.keys.revoke(id);
    let (after, creator) = stored::find(db, id).await?.ok_or_else(|| AuthError::NoSuchApiKey(id.to_owned()))?;
    let record =
        actor.attempt("api-key.revoke", id).succeeded(Some(audit_json(&before)), Some(audit_json(&after)), now);
    let revoked = ApiKeyRevoked { key_id: id.to_owned() };
    audit.record_change(id, &actor.id, Payload::ApiKeyRevoked(revoked), record).await?;
    Ok((after, creator))
}

/// A key as the audit trail shows it (never the key or its digest).
fn audit_json(key: &ApiKey) -> String {
    json!({"id": key.id, "name": key.name, "prefix": key.prefix, "role": key.role.as_str(),
           "expiresAt": key.expires_at.to_rfc3339(), "revokedAt": key.revoked_at.map(|t| t.to_rfc3339())})
    .to_string()
}
