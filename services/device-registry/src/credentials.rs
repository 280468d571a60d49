//! Gateways' MQTT credentials issued, rotated and revoked
//! (docs/device-plane.md): like every registry action, the change is
//! saved with its events and audit record in one transaction.

use serde_json::json;
use wm_domain::DeviceId;
use wm_eventlog::{audit, audit::Attempt};
use wm_proto::Envelope;
use wm_storage::Tx;

use crate::{
    actions::{Actions, REGISTRY_KEY},
    device_ca::{DeviceCa, IssuedCertificate},
    domain::credential::{self, Credential, Proof},
    error::RegistryError,
    storage::{credentials, devices},
};

/// A credential just issued, with what proves it: shown once.
#[derive(Debug)]
pub struct Issued<T> {
    pub credential: Credential,
    pub proof: T,
}

impl Actions {
    /// Gives the gateway `gateway_id` a new secret, revoking its active one.
    pub async fn issue_secret(&self, attempt: &Attempt, gateway_id: DeviceId) -> Result<Issued<String>, RegistryError> {
        let secret = credential::generate_secret();
        let hash = wm_mqtt::password::hash(&secret);
        self.issue(attempt, gateway_id, |_, _| Ok((Proof::SecretHash(hash), secret))).await
    }

    /// Gives the gateway `gateway_id` a new client certificate signed by
    /// `ca`, revoking its active one.
    pub async fn issue_certificate(
        &self,
        attempt: &Attempt,
        gateway_id: DeviceId,
        ca: &DeviceCa,
    ) -> Result<Issued<IssuedCertificate>, RegistryError> {
        let now = self.clock.now();
        self.issue(attempt, gateway_id, |serial, id| {
            let certificate = ca.issue(serial, id, now).map_err(|e| RegistryError::Unavailable(e.to_string()))?;
            let proof =
                Proof::Fingerprint { fingerprint: certificate.fingerprint.clone(), expires_at: certificate.expires_at };
            Ok((proof, certificate))
        })
        .await
    }

    /// Issues the credential `make` makes for the gateway's serial number
    /// (and the credential's id) to the gateway, revoking its active ones of
    /// the same kind.
    async fn issue<T>(
        &self,
        attempt: &Attempt,
        gateway_id: DeviceId,
        make: impl FnOnce(&str, &str) -> Result<(Proof, T), RegistryError>,
    ) -> Result<Issued<T>, RegistryError> {
        let now = self.clock.now();
        let id = DeviceId::with_timestamp(now);
        let mut tx = self.db.begin_write().await?;
        let (Some(gateway), _) = devices::load_gateway(&mut tx, &gateway_id.to_string()).await? else {
            return Err(RegistryError::NotFound("gateway"));
        };
        let existing = credentials::of_gateway_in(&mut tx, &gateway_id.to_string()).await?;
        let serial = gateway.serial_number.to_string();
        let (proof, made) = make(&serial, &id.to_string())?;
        let events = credential::issue((&gateway_id, &serial), &existing, &id, proof, now);
        self.stage_credentials(&mut tx, attempt, &gateway_id, events).await?;
        let issued = credentials::of_gateway_in(&mut tx, &gateway_id.to_string()).await?;
        tx.commit().await?;
        self.relay.wake();
        let credential =
            issued.into_iter().find(|c| c.id == id.to_string()).ok_or(RegistryError::NotFound("credential"))?;
        Ok(Issued { credential, proof: made })
    }

    /// Revokes the gateway's credential `credential_id`; one revoked
    /// already stays as it is.
    pub async fn revoke_credential(
        &self,
        attempt: &Attempt,
        gateway_id: DeviceId,
        credential_id: &str,
    ) -> Result<(), RegistryError> {
        let mut tx = self.db.begin_write().await?;
        let existing = credentials::of_gateway_in(&mut tx, &gateway_id.to_string()).await?;
        let credential =
            existing.iter().find(|c| c.id == credential_id).ok_or(RegistryError::NotFound("credential"))?;
        if credential.revoked_at.is_some() {
            return Ok(());
        }
        let events = vec![credential::revocation(credential, self.clock.now())];
        self.stage_credentials(&mut tx, attempt, &gateway_id, events).await?;
        tx.commit().await?;
        self.relay.wake();
        Ok(())
    }

    /// Saves the credential events of the gateway, and stages them with
    /// the audit record of `attempt` (what each event did; never a secret).
    async fn stage_credentials(
        &self,
        tx: &mut Tx,
        attempt: &Attempt,
        gateway_id: &DeviceId,
        events: Vec<wm_proto::Payload>,
    ) -> Result<(), RegistryError> {
        let now = self.clock.now();
        let mut changes = Vec::with_capacity(events.len());
        for event in &events {
            credentials::persist(tx, event).await?;
            changes.push(match event {
                wm_proto::Payload::GatewayCredentialIssued(e) => json!({
                    "issued": e.id, "kind": e.kind().as_str_name(), "fingerprint": e.fingerprint,
                }),
                wm_proto::Payload::GatewayCredentialRevoked(e) => json!({ "revoked": e.id }),
                _ => json!({}),
            });
        }
        let envelopes: Vec<Envelope> = events
            .into_iter()
            .map(|event| Envelope::new(gateway_id.to_string(), &attempt.actor, event).with_occurred_at(now))
            .collect();
        self.relay.stage(tx, Some(REGISTRY_KEY), &envelopes).await?;
        let after = Some(serde_json::Value::Array(changes).to_string());
        audit::stage(tx, &self.relay, &attempt.clone().on(&gateway_id.to_string()).succeeded(None, after, now)).await?;
        Ok(())
    }
}
