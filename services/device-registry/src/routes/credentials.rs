//! A gateway's MQTT credentials (docs/device-plane.md): listed, issued
//! (a rotation when one of the kind is active) and revoked. Operators and
//! admins only; a secret is in the answer that issues it, and nowhere else.

use actix_web::{HttpResponse, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use wm_http::{ApiError, JsonObject, auth::Caller};

use super::params::device_id;
use crate::{
    domain::credential::{Credential, Kind},
    error::RegistryError,
    state::RegistryState,
    storage::{credentials, lists, rows::GatewayRow},
};

/// A credential, without what proves it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CredentialJson {
    #[schema(example = "6740a1b2c3d4e5f601234567")]
    id: String,
    /// `secret` or `certificate`.
    kind: &'static str,
    /// The MQTT username (and a certificate's CN): the gateway's serial number.
    #[schema(example = "A1B2C3D4E5")]
    username: String,
    /// A certificate's `sha256:<hex of its DER>`; null for a secret.
    fingerprint: Option<String>,
    #[schema(format = DateTime)]
    created_at: String,
    #[schema(format = DateTime)]
    expires_at: Option<String>,
    #[schema(format = DateTime)]
    revoked_at: Option<String>,
}

impl From<Credential> for CredentialJson {
    fn from(c: Credential) -> Self {
        Self {
            id: c.id,
            kind: c.kind.as_str(),
            username: c.serial_number,
            fingerprint: (!c.fingerprint.is_empty()).then_some(c.fingerprint),
            created_at: time(c.created_at),
            expires_at: c.expires_at.map(time),
            revoked_at: c.revoked_at.map(time),
        }
    }
}

/// ISO 8601 with milliseconds, as the API's other times are.
fn time(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

#[derive(Serialize, ToSchema)]
pub struct CredentialList {
    credentials: Vec<CredentialJson>,
}

/// What to issue.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct IssueCredential {
    /// `secret` or `certificate`.
    #[schema(example = "secret")]
    kind: String,
}

/// A credential just issued, with what proves it: shown this once.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IssuedCredential {
    credential: CredentialJson,
    /// A secret: the MQTT password; only its hash is kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    secret: Option<String>,
    /// A certificate (PEM), CN = the serial number; only its fingerprint is kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    certificate: Option<String>,
    /// Its private key (PEM); never kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    private_key: Option<String>,
    /// The device CA's certificate (PEM), which the broker trusts.
    #[serde(skip_serializing_if = "Option::is_none")]
    ca_certificate: Option<String>,
}

/// The gateway's MQTT credentials, newest first.
#[utoipa::path(get, path = "/api/devices/gateways/{id}/credentials", tag = "gateways",
    params(("id" = String, Path, description = "The gateway's id")),
    responses((status = 200, body = CredentialList),
        (status = 400, description = "A malformed gateway id", body = ApiError),
        (status = 403, description = "A viewer may not see credentials", body = ApiError),
        (status = 404, description = "No such gateway", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn list(
    caller: Caller,
    state: web::Data<RegistryState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    caller.may_change_devices()?;
    let id = device_id(&id)?;
    if lists::by_id::<GatewayRow>(state.db(), &id.to_string()).await?.is_none() {
        return Err(RegistryError::NotFound("gateway").into());
    }
    let credentials = credentials::of_gateway(state.db(), &id.to_string()).await?;
    Ok(HttpResponse::Ok().json(CredentialList { credentials: credentials.into_iter().map(Into::into).collect() }))
}

/// Issues the gateway a credential; an active one of the same kind is
/// revoked at once (a rotation).
#[utoipa::path(post, path = "/api/devices/gateways/{id}/credentials", tag = "gateways",
    params(("id" = String, Path, description = "The gateway's id")),
    request_body = IssueCredential,
    responses((status = 201, body = IssuedCredential),
        (status = 400, description = "A malformed gateway id, or an unknown kind", body = ApiError),
        (status = 403, description = "A viewer may not issue credentials", body = ApiError),
        (status = 404, description = "No such gateway", body = ApiError),
        (status = 409, description = "`device_ca_unavailable`: a certificate, and no device CA is configured", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn issue(
    caller: Caller,
    state: web::Data<RegistryState>,
    id: web::Path<String>,
    body: JsonObject<IssueCredential>,
) -> Result<HttpResponse, ApiError> {
    let attempt = RegistryState::attempt(&caller, "gateway.credential.issue");
    let result = async {
        caller.may_change_devices()?;
        let id = device_id(&id)?;
        let issued = match Kind::parse(&body.kind) {
            Some(Kind::Secret) => {
                let issued = state.actions.issue_secret(&attempt, id).await?;
                IssuedCredential {
                    credential: issued.credential.into(),
                    secret: Some(issued.proof),
                    certificate: None,
                    private_key: None,
                    ca_certificate: None,
                }
            }
            Some(Kind::Certificate) => {
                let ca = state.device_ca.certificate_pem().map_err(|e| RegistryError::Unavailable(e.to_string()))?;
                let issued = state.actions.issue_certificate(&attempt, id, &state.device_ca).await?;
                IssuedCredential {
                    credential: issued.credential.into(),
                    secret: None,
                    certificate: Some(issued.proof.certificate_pem),
                    private_key: Some(issued.proof.private_key_pem),
                    ca_certificate: Some(ca),
                }
            }
            None => return Err(RegistryError::invalid("kind", "The kind must be secret or certificate").into()),
        };
        Ok(HttpResponse::Created().insert_header(("Cache-Control", "no-store")).json(issued))
    };
    state.audited(&attempt, result.await).await
}

/// Revokes one of the gateway's credentials: the broker refuses it from
/// now on and closes the connection that signed in with it.
#[utoipa::path(post, path = "/api/devices/gateways/{id}/credentials/{credentialId}/revoke", tag = "gateways",
    params(("id" = String, Path, description = "The gateway's id"),
        ("credentialId" = String, Path, description = "The credential's id")),
    responses((status = 204, description = "Revoked (or revoked already)"),
        (status = 400, description = "A malformed gateway id", body = ApiError),
        (status = 403, description = "A viewer may not revoke credentials", body = ApiError),
        (status = 404, description = "No such credential for this gateway", body = ApiError)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn revoke(
    caller: Caller,
    state: web::Data<RegistryState>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let attempt = RegistryState::attempt(&caller, "gateway.credential.revoke");
    let result = async {
        caller.may_change_devices()?;
        let (id, credential) = path.into_inner();
        state.actions.revoke_credential(&attempt, device_id(&id)?, &credential).await?;
        Ok(HttpResponse::NoContent().finish())
    };
    state.audited(&attempt, result.await).await
}
