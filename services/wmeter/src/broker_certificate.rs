//! The MQTT broker's TLS certificate (docs/device-plane.md), signed by the
//! device CA, so that a gateway trusting that CA trusts the broker.
//! `wmeter broker-certificate` writes it for Mosquitto's TLS listeners,
//! beside the CA's certificate they check gateways' certificates against,
//! and keeps it while it still serves.

use std::{collections::BTreeSet, fs, net::IpAddr, path::Path};

use anyhow::Context;
use chrono::{DateTime, TimeDelta, Utc};
use wm_device_registry::device_ca::DeviceCa;
use x509_parser::{extensions::GeneralName, pem::parse_x509_pem};

/// The broker's certificate, its key and the device CA's certificate, in
/// the folder given.
pub const CERTIFICATE: &str = "server.crt";
pub const KEY: &str = "server.key";
pub const CA: &str = "device-ca.crt";

/// A certificate that expires sooner than this is made again.
const RENEW_BEFORE_DAYS: i64 = 30;

/// What [`ensure`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The certificate there still serves; it expires then.
    Kept(DateTime<Utc>),
    /// A new one was written; it expires then.
    Written(DateTime<Utc>),
}

/// A certificate in `dir` for a broker reached as each of `hosts`, signed
/// by `ca` (made if it may and there is none), with [`RENEW_BEFORE_DAYS`]
/// left at least. One already there is kept when it was signed by `ca`,
/// names exactly `hosts` and has that time left; otherwise a new key and
/// certificate replace it.
pub fn ensure(ca: &DeviceCa, dir: &Path, hosts: &[String], now: DateTime<Utc>) -> anyhow::Result<Outcome> {
    let wanted = names(hosts)?;
    let ca_pem = ca.certificate_pem()?;
    if let Some(expires) = still_serves(dir, &ca_pem, &wanted, now) {
        return Ok(Outcome::Kept(expires));
    }
    let issued = ca.issue_server(&wanted.iter().cloned().collect::<Vec<_>>(), now)?;
    fs::create_dir_all(dir).with_context(|| format!("{}: cannot make the folder", dir.display()))?;
    for (name, content, mode) in
        [(KEY, &issued.private_key_pem, 0o600), (CERTIFICATE, &issued.certificate_pem, 0o644), (CA, &ca_pem, 0o644)]
    {
        crate::files::replace(dir, name, content, mode)
            .with_context(|| format!("{}: cannot write", dir.join(name).display()))?;
    }
    Ok(Outcome::Written(issued.expires_at))
}

/// The host names, each a DNS name or an IP address (written as the
/// certificate will hold it).
fn names(hosts: &[String]) -> anyhow::Result<BTreeSet<String>> {
    if hosts.is_empty() {
        anyhow::bail!("--host: give at least one name or address gateways reach the broker by");
    }
    hosts
        .iter()
        .map(|host| {
            let host = host.trim();
            if let Ok(ip) = host.parse::<IpAddr>() {
                return Ok(ip.to_string());
            }
            let label = |l: &str| {
                (1..=63).contains(&l.len())
                    && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                    && !l.starts_with('-')
                    && !l.ends_with('-')
            };
            if host.len() > 253 || !host.split('.').all(label) {
                anyhow::bail!("--host: {host:?} is neither a DNS name (e.g. mqtt.example.com) nor an IP address");
            }
            Ok(host.to_ascii_lowercase())
        })
        .collect()
}

/// When the certificate in `dir` still serves: its expiry.
fn still_serves(dir: &Path, ca_pem: &str, wanted: &BTreeSet<String>, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    if fs::read_to_string(dir.join(CA)).ok()? != ca_pem || !dir.join(KEY).is_file() {
        return None;
    }
    let pem_bytes = fs::read(dir.join(CERTIFICATE)).ok()?;
    let (_, pem) = parse_x509_pem(&pem_bytes).ok()?;
    let certificate = pem.parse_x509().ok()?;
    let expires = DateTime::from_timestamp(certificate.validity().not_after.timestamp(), 0)?;
    let named: BTreeSet<String> = certificate
        .subject_alternative_name()
        .ok()??
        .value
        .general_names
        .iter()
        .filter_map(|name| match name {
            GeneralName::DNSName(dns) => Some(dns.to_ascii_lowercase()),
            GeneralName::IPAddress(bytes) => ip(bytes).map(|ip| ip.to_string()),
            _ => None,
        })
        .collect();
    (named == *wanted && expires - now > TimeDelta::days(RENEW_BEFORE_DAYS)).then_some(expires)
}

fn ip(bytes: &[u8]) -> Option<IpAddr> {
    match bytes.len() {
        4 => <[u8; 4]>::try_from(bytes).ok().map(IpAddr::from),
        16 => <[u8; 16]>::try_from(bytes).ok().map(IpAddr::from),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hosts(list: &[&str]) -> Vec<String> {
        list.iter().map(|h| (*h).to_owned()).collect()
    }

    #[test]
    fn host_names_are_dns_names_or_addresses() {
        let named = names(&hosts(&["Mosquitto", " 127.0.0.1 ", "::1", "mqtt.example.com"])).unwrap();
        assert_eq!(named.into_iter().collect::<Vec<_>>(), ["127.0.0.1", "::1", "mosquitto", "mqtt.example.com"]);
        for bad in ["", "a b", "bad_name", "x..y", "-"] {
            let error = names(&hosts(&[bad])).unwrap_err().to_string();
            assert!(error.starts_with("--host: "), "{bad:?}: {error}");
        }
        assert!(names(&[]).is_err());
    }

    #[test]
    fn a_certificate_is_kept_while_it_serves_and_made_again_when_not() {
        let dir = tempfile::tempdir().unwrap();
        let ca = DeviceCa::new(dir.path().join("ca.crt"), dir.path().join("ca.key"), true);
        let tls = dir.path().join("tls");
        let now = Utc::now();
        let first = ensure(&ca, &tls, &hosts(&["mosquitto", "127.0.0.1"]), now).unwrap();
        let Outcome::Written(expires) = first else { panic!("{first:?}") };
        let key_mode = std::os::unix::fs::PermissionsExt::mode(&fs::metadata(tls.join(KEY)).unwrap().permissions());
        assert_eq!(key_mode & 0o777, 0o600);
        let written = fs::read_to_string(tls.join(CERTIFICATE)).unwrap();

        // The same hosts (in any order): kept, byte for byte.
        assert_eq!(ensure(&ca, &tls, &hosts(&["127.0.0.1", "Mosquitto"]), now).unwrap(), Outcome::Kept(expires));
        assert_eq!(fs::read_to_string(tls.join(CERTIFICATE)).unwrap(), written);
        // Another host, a date within the renewal window, another CA: made again.
        assert!(matches!(ensure(&ca, &tls, &hosts(&["mosquitto"]), now).unwrap(), Outcome::Written(_)));
        let late = expires - TimeDelta::days(RENEW_BEFORE_DAYS - 1);
        assert!(matches!(ensure(&ca, &tls, &hosts(&["mosquitto"]), late).unwrap(), Outcome::Written(_)));
        let other = DeviceCa::new(dir.path().join("other.crt"), dir.path().join("other.key"), true);
        assert!(matches!(ensure(&other, &tls, &hosts(&["mosquitto"]), now).unwrap(), Outcome::Written(_)));
        assert_eq!(fs::read_to_string(tls.join(CA)).unwrap(), other.certificate_pem().unwrap());
    }
}
