//! A gateway's MQTT credential (docs/device-plane.md): a random secret whose
//! username is the gateway's serial number, or a client certificate signed
//! by w-meter's CA with the serial number as its CN. Issuing one of a kind
//! revokes the gateway's earlier ones of that kind: a rotation.

use chrono::{DateTime, Utc};
use wm_domain::DeviceId;
use wm_proto::{
    Payload,
    v1::{CredentialKind, GatewayCredentialIssued, GatewayCredentialRevoked},
};

/// Random characters of a secret: 48 of base32, 240 bits.
const SECRET_CHARS: usize = 48;
/// Lower-case base32: nothing to escape in a shell, a URL or a config file.
const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz234567";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Secret,
    Certificate,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Secret => "secret",
            Kind::Certificate => "certificate",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [Kind::Secret, Kind::Certificate].into_iter().find(|k| k.as_str() == text)
    }

    fn wire(self) -> CredentialKind {
        match self {
            Kind::Secret => CredentialKind::Secret,
            Kind::Certificate => CredentialKind::Certificate,
        }
    }
}

/// A credential as the registry keeps it: never the secret or the key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Credential {
    pub id: String,
    pub gateway_id: String,
    /// The MQTT username, or the certificate's CN.
    pub serial_number: String,
    pub kind: Kind,
    /// A certificate's `sha256:<hex>`; empty for a secret.
    pub fingerprint: String,
    pub created_at: DateTime<Utc>,
    pub expires_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
}

impl Credential {
    /// Whether the broker accepts it at `now`.
    pub fn is_active(&self, now: DateTime<Utc>) -> bool {
        self.revoked_at.is_none() && self.expires_at.is_none_or(|at| at > now)
    }
}

/// What proves the new credential, kept by the broker: a secret's hash or a
/// certificate's fingerprint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    SecretHash(String),
    Fingerprint { fingerprint: String, expires_at: DateTime<Utc> },
}

/// The events of issuing a credential to the gateway `gateway_id`
/// (`serial`): the revocation of each of `existing` still active of the
/// same kind, then the new one.
pub fn issue(
    (gateway_id, serial): (&DeviceId, &str),
    existing: &[Credential],
    id: &DeviceId,
    proof: Proof,
    now: DateTime<Utc>,
) -> Vec<Payload> {
    let kind = match proof {
        Proof::SecretHash(_) => Kind::Secret,
        Proof::Fingerprint { .. } => Kind::Certificate,
    };
    let mut events: Vec<Payload> =
        existing.iter().filter(|c| c.kind == kind && c.is_active(now)).map(|c| revocation(c, now)).collect();
    let (secret_hash, fingerprint, expires_at) = match proof {
        Proof::SecretHash(hash) => (hash, String::new(), None),
        Proof::Fingerprint { fingerprint, expires_at } => (String::new(), fingerprint, Some(expires_at)),
    };
    events.push(Payload::GatewayCredentialIssued(GatewayCredentialIssued {
        id: id.to_string(),
        gateway_id: gateway_id.to_string(),
        serial_number: serial.to_owned(),
        kind: kind.wire().into(),
        secret_hash,
        fingerprint,
        expires_at: expires_at.map(wm_proto::time::to_timestamp),
        issued_at: Some(wm_proto::time::to_timestamp(now)),
    }));
    events
}

/// The event of revoking `credential` at `now`.
pub fn revocation(credential: &Credential, now: DateTime<Utc>) -> Payload {
    Payload::GatewayCredentialRevoked(GatewayCredentialRevoked {
        id: credential.id.clone(),
        gateway_id: credential.gateway_id.clone(),
        serial_number: credential.serial_number.clone(),
        revoked_at: Some(wm_proto::time::to_timestamp(now)),
    })
}

/// A new secret: 48 random base32 characters (240 bits).
pub fn generate_secret() -> String {
    (0..SECRET_CHARS).map(|_| char::from(ALPHABET[rand::random_range(0..ALPHABET.len())])).collect()
}

#[cfg(test)]
mod tests {
    use chrono::TimeDelta;

    use super::*;

    fn credential(id: &str, kind: Kind, revoked: bool) -> Credential {
        let now = Utc::now();
        Credential {
            id: id.into(),
            gateway_id: "g".into(),
            serial_number: "A1B2C3D4E5".into(),
            kind,
            fingerprint: String::new(),
            created_at: now,
            expires_at: None,
            revoked_at: revoked.then_some(now),
        }
    }

    #[test]
    fn issuing_a_kind_revokes_the_active_ones_of_that_kind_only() {
        let now = Utc::now();
        let existing = [
            credential("old-secret", Kind::Secret, false),
            credential("gone", Kind::Secret, true),
            credential("cert", Kind::Certificate, false),
        ];
        let (gateway, id) = (DeviceId::with_timestamp(now), DeviceId::with_timestamp(now));
        let events = issue((&gateway, "A1B2C3D4E5"), &existing, &id, Proof::SecretHash("$7$h".into()), now);
        let names: Vec<_> = events.iter().map(Payload::name).collect();
        assert_eq!(names, ["GatewayCredentialRevoked", "GatewayCredentialIssued"]);
        let Payload::GatewayCredentialRevoked(revoked) = &events[0] else { unreachable!() };
        assert_eq!(revoked.id, "old-secret");
        let Payload::GatewayCredentialIssued(issued) = &events[1] else { unreachable!() };
        assert_eq!((issued.kind(), issued.secret_hash.as_str()), (CredentialKind::Secret, "$7$h"));
        assert_eq!(issued.serial_number, "A1B2C3D4E5");
    }

    #[test]
    fn a_credential_is_active_until_revoked_or_expired() {
        let now = Utc::now();
        let mut c = credential("c", Kind::Certificate, false);
        assert!(c.is_active(now));
        c.expires_at = Some(now - TimeDelta::seconds(1));
        assert!(!c.is_active(now));
        assert!(!credential("r", Kind::Secret, true).is_active(now));
    }

    #[test]
    fn a_secret_holds_240_random_bits() {
        let secret = generate_secret();
        assert_eq!(secret.len(), 48);
        assert!(secret.bytes().all(|b| ALPHABET.contains(&b)));
        assert_ne!(generate_secret(), secret);
    }
}
