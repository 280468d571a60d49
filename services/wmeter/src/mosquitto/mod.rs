//! Mosquitto's password and ACL files for the distributed mode's device
//! plane (docs/device-plane.md), written from the registry: each gateway
//! with an active secret signs in as its serial number on the gateway
//! listener, each active client certificate (by its subject) on the TLS
//! listener, and either publishes its own uplinks and reads its own
//! commands; w-meter signs in on the service listener and reads and writes
//! every gateway's topics; the device CA's revocation list refuses a revoked
//! certificate at the handshake. `deploy/mosquitto/mosquitto.conf` points
//! Mosquitto at them; `wmeter mosquitto --watch` keeps them in sync and makes
//! it reload.

mod crl;

use std::{collections::BTreeMap, fs, io, path::Path};

use anyhow::Context;
use chrono::{DateTime, Utc};
use wm_device_registry::{
    device_ca::{DeviceCa, subject},
    storage::credentials,
};
use wm_mqtt::password;
use wm_storage::Db;
use wm_telemetry_ingest::MqttSettings;
use wm_uplink::topic::{self, Kind};

/// The files, by name, in the order they are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthFiles(pub BTreeMap<&'static str, String>);

pub const GATEWAY_PASSWORDS: &str = "gateways.passwords";
pub const GATEWAY_ACL: &str = "gateways.acl";
pub const SERVICE_PASSWORDS: &str = "service.passwords";
pub const SERVICE_ACL: &str = "service.acl";
pub const CERTIFICATE_ACL: &str = "certificates.acl";
pub const CERTIFICATE_CRL: &str = "certificates.crl";

const READING: &str = "reading the gateways' credentials (is the registry's database migrated?)";

const HEADER: &str = "# Written by `wmeter mosquitto`: do not edit (docs/device-plane.md).\n";

/// The files for the registry's credentials at `now`; the revocation list
/// only with the device CA `ca`. A configured password keeps the hash `dir`
/// already holds for it while that hash still matches, and the list is kept
/// while it says the same, so an unchanged registry writes unchanged files.
/// The files are written in name order: `service.passwords` last, which is
/// what Mosquitto's start waits for.
pub async fn render(
    db: &Db,
    mqtt: &MqttSettings,
    dir: &Path,
    ca: Option<&DeviceCa>,
    now: DateTime<Utc>,
) -> anyhow::Result<AuthFiles> {
    let secrets = credentials::active_secrets(db, now.timestamp_micros()).await.context(READING)?;
    let certificates = credentials::active_certificates(db, now.timestamp_micros()).await.context(READING)?;
    let mut gateways: BTreeMap<String, String> = secrets.into_iter().collect();
    let mut gateway_acl = String::from(HEADER);
    for kind in Kind::ALL {
        gateway_acl.push_str(&format!("pattern write {}\n", topic::uplink("%u", kind)));
    }
    gateway_acl.push_str(&format!("pattern read {}\n", topic::commands("%u")));
    if let Some(shared) = &mqtt.gateway_password {
        let username = &mqtt.gateway_username;
        gateways.insert(username.clone(), kept_hash(&dir.join(GATEWAY_PASSWORDS), username, shared));
        gateway_acl.push_str(&format!(
            "\n# The shared gateway login (mqtt.gateway_password): migrations only.\nuser {username}\n"
        ));
        for kind in Kind::ALL {
            gateway_acl.push_str(&format!("topic write {}\n", topic::uplink("+", kind)));
        }
        gateway_acl.push_str(&format!("topic read {}\n", topic::commands("+")));
    }
    let mut certificate_acl = String::from(HEADER);
    for (credential, serial) in &certificates {
        certificate_acl.push_str(&format!("\nuser {}\n", subject(serial, credential)));
        for kind in Kind::ALL {
            certificate_acl.push_str(&format!("topic write {}\n", topic::uplink(serial, kind)));
        }
        certificate_acl.push_str(&format!("topic read {}\n", topic::commands(serial)));
    }
    let service = &mqtt.username;
    let service_hash = kept_hash(&dir.join(SERVICE_PASSWORDS), service, mqtt.password.as_deref().unwrap_or_default());
    let mut files = BTreeMap::from([
        (GATEWAY_PASSWORDS, password_file(&gateways)),
        (GATEWAY_ACL, gateway_acl),
        (CERTIFICATE_ACL, certificate_acl),
        (SERVICE_PASSWORDS, password_file(&BTreeMap::from([(service.clone(), service_hash)]))),
        (SERVICE_ACL, format!("{HEADER}user {service}\ntopic readwrite {}#\n", topic::PREFIX)),
    ]);
    if let Some(ca) = ca {
        let revoked = credentials::revoked_certificates(db, now.timestamp_micros()).await.context(READING)?;
        let list = crl::kept(&dir.join(CERTIFICATE_CRL), ca, &revoked, now).context("signing the revocation list")?;
        files.insert(CERTIFICATE_CRL, list);
    }
    Ok(AuthFiles(files))
}

fn password_file(users: &BTreeMap<String, String>) -> String {
    users.iter().map(|(user, hash)| format!("{user}:{hash}\n")).collect()
}

/// The hash of `user` in the password file `path` if it matches `secret`;
/// a new one otherwise.
fn kept_hash(path: &Path, user: &str, secret: &str) -> String {
    let existing = fs::read_to_string(path).unwrap_or_default();
    existing
        .lines()
        .filter_map(|line| line.split_once(':'))
        .find(|(name, hash)| *name == user && password::verify(secret, hash))
        .map_or_else(|| password::hash(secret), |(_, hash)| hash.to_owned())
}

/// Writes each file that differs from what `dir` holds, atomically (a
/// temporary file renamed over it), readable by Mosquitto's own user.
/// Whether any changed.
pub fn write(dir: &Path, files: &AuthFiles) -> io::Result<bool> {
    fs::create_dir_all(dir)?;
    let mut changed = false;
    for (name, content) in &files.0 {
        let path = dir.join(name);
        if fs::read_to_string(&path).is_ok_and(|old| old == *content) {
            continue;
        }
        crate::files::replace(dir, name, content, 0o644)?;
        changed = true;
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_is_kept_while_it_matches() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p");
        let first = kept_hash(&path, "wmeter", "pw");
        fs::write(&path, format!("other:x\nwmeter:{first}\n")).unwrap();
        assert_eq!(kept_hash(&path, "wmeter", "pw"), first);
        let changed = kept_hash(&path, "wmeter", "new");
        assert_ne!(changed, first);
        assert!(password::verify("new", &changed));
    }

    #[test]
    fn only_changed_files_are_written() {
        let dir = tempfile::tempdir().unwrap();
        let files = AuthFiles(BTreeMap::from([(GATEWAY_ACL, "a\n".to_owned())]));
        assert!(write(dir.path(), &files).unwrap());
        assert!(!write(dir.path(), &files).unwrap());
        assert_eq!(fs::read_to_string(dir.path().join(GATEWAY_ACL)).unwrap(), "a\n");
    }
}
