//! `certificates.crl`: the device CA's revocation list for Mosquitto's
//! certificate listener (`crlfile`), which it reads again on SIGHUP, so that
//! a revoked certificate fails the TLS handshake. A signature differs each
//! time it is made, so a list that still says the same is kept as it is:
//! an unchanged registry writes nothing and reloads nothing.

use std::{collections::BTreeSet, fs, path::Path};

use chrono::{DateTime, TimeDelta, Utc};
use wm_device_registry::device_ca::{CaError, DeviceCa, certificate_serial};
use x509_parser::{extensions::ParsedExtension, parse_x509_crl, pem::parse_x509_pem};

/// A list that expires sooner than this is signed again.
const RENEW_BEFORE_DAYS: i64 = 30;

/// The list of `revoked` (credential id, when) that `path` holds if it
/// still says the same, a new one signed by `ca` otherwise.
pub fn kept(
    path: &Path,
    ca: &DeviceCa,
    revoked: &[(String, DateTime<Utc>)],
    now: DateTime<Utc>,
) -> Result<String, CaError> {
    let wanted: BTreeSet<Vec<u8>> = revoked.iter().map(|(credential, _)| certificate_serial(credential)).collect();
    let ca_pem = ca.certificate_pem()?;
    match fs::read_to_string(path) {
        Ok(existing) if says(&existing, &ca_pem, &wanted, now) => Ok(existing),
        _ => ca.crl(revoked, now),
    }
}

/// Whether the list `crl` was issued by the CA `ca_pem` (the key that
/// signed it is the CA's: a new CA may bear the old one's name), names
/// exactly the serial numbers `wanted` and stays valid
/// [`RENEW_BEFORE_DAYS`] more.
fn says(crl: &str, ca_pem: &str, wanted: &BTreeSet<Vec<u8>>, now: DateTime<Utc>) -> bool {
    let (Ok((_, crl_pem)), Ok((_, ca))) = (parse_x509_pem(crl.as_bytes()), parse_x509_pem(ca_pem.as_bytes())) else {
        return false;
    };
    let (Ok((_, list)), Ok(ca)) = (parse_x509_crl(&crl_pem.contents), ca.parse_x509()) else { return false };
    let renew_at = (now + TimeDelta::days(RENEW_BEFORE_DAYS)).timestamp();
    let named: BTreeSet<Vec<u8>> = list.iter_revoked_certificates().map(|r| r.raw_serial().to_vec()).collect();
    let signer = list.extensions().iter().find_map(|e| match e.parsed_extension() {
        ParsedExtension::AuthorityKeyIdentifier(aki) => aki.key_identifier.as_ref().map(|k| k.0),
        _ => None,
    });
    let ca_key = ca.extensions().iter().find_map(|e| match e.parsed_extension() {
        ParsedExtension::SubjectKeyIdentifier(key) => Some(key.0),
        _ => None,
    });
    list.issuer().as_raw() == ca.subject().as_raw()
        && signer.is_some()
        && signer == ca_key
        && list.next_update().is_some_and(|next| next.timestamp() > renew_at)
        && named == *wanted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_kept_while_it_says_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let ca = DeviceCa::new(dir.path().join("ca.crt"), dir.path().join("ca.key"), true);
        let path = dir.path().join("certificates.crl");
        let now = Utc::now();
        let one = [("0123456789abcdef01234567".to_owned(), now)];
        let first = kept(&path, &ca, &one, now).unwrap();
        assert!(first.starts_with("-----BEGIN X509 CRL-----"), "{first}");
        fs::write(&path, &first).unwrap();
        assert_eq!(kept(&path, &ca, &one, now).unwrap(), first, "the same list: kept");

        let two = [one[0].clone(), ("89abcdef0123456789abcdef".to_owned(), now)];
        assert_ne!(kept(&path, &ca, &two, now).unwrap(), first, "another revocation: signed again");
        let late = now + TimeDelta::days(wm_device_registry::device_ca::CRL_DAYS - RENEW_BEFORE_DAYS + 1);
        assert_ne!(kept(&path, &ca, &one, late).unwrap(), first, "about to expire: signed again");
        let other = DeviceCa::new(dir.path().join("other.crt"), dir.path().join("other.key"), true);
        assert_ne!(kept(&path, &other, &one, now).unwrap(), first, "another CA: signed again");
    }
}
