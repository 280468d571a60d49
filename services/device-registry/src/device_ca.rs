//! w-meter's device CA (docs/device-plane.md): it signs each gateway's
//! client certificate (CN = its serial number). Its certificate and key
//! are files (`devices.ca_cert_file`, `devices.ca_key_file`); the embedded
//! mode makes them the first time they are needed, the key readable by its
//! owner alone.

use std::{
    fs::{self, OpenOptions},
    io::{ErrorKind, Write},
    os::unix::fs::OpenOptionsExt,
    path::{Path, PathBuf},
    sync::{Arc, OnceLock},
};

use chrono::{DateTime, Datelike, NaiveTime, TimeDelta, Utc};
use rcgen::{
    BasicConstraints, CertificateParams, CertificateRevocationListParams, DistinguishedName, DnType,
    ExtendedKeyUsagePurpose, IsCa, Issuer, KeyIdMethod, KeyPair, KeyUsagePurpose, RevokedCertParams, SerialNumber,
    date_time_ymd,
};
use wm_domain::DeviceId;

/// How long a gateway's certificate is valid: two years, then it is
/// rotated like a secret.
pub const CERTIFICATE_DAYS: i64 = 730;
/// How long a CA made by the embedded mode is valid.
const CA_DAYS: i64 = 3650;
/// How long a CRL is valid; it is signed again well before
/// (`wmeter mosquitto`) and whenever a certificate is revoked.
pub const CRL_DAYS: i64 = 365;
const CA_NAME: &str = "w-meter device CA";

/// The start of `at`'s day (UTC), as certificates count validity.
macro_rules! day {
    ($at:expr) => {{
        let at: DateTime<Utc> = $at;
        // Month and day always fit a u8.
        date_time_ymd(at.year(), at.month() as u8, at.day() as u8)
    }};
}

#[derive(Debug, thiserror::Error)]
pub enum CaError {
    #[error("{key}: {path}: {reason}")]
    File { key: &'static str, path: PathBuf, reason: String },
    #[error("no device CA: set devices.ca_cert_file and devices.ca_key_file to its certificate and key")]
    Missing,
    #[error("cannot sign a certificate: {0}")]
    Sign(#[from] rcgen::Error),
}

/// A client certificate just made, with its private key: shown once.
#[derive(Debug)]
pub struct IssuedCertificate {
    pub certificate_pem: String,
    pub private_key_pem: String,
    /// `sha256:<hex of its DER>`.
    pub fingerprint: String,
    pub expires_at: DateTime<Utc>,
}

/// The CA, loaded (or made) on first use.
#[derive(Debug)]
pub struct DeviceCa {
    cert_file: PathBuf,
    key_file: PathBuf,
    /// Whether a missing CA is made (the embedded mode).
    create: bool,
    loaded: OnceLock<Arc<Loaded>>,
}

#[derive(Debug)]
struct Loaded {
    issuer: Issuer<'static, KeyPair>,
    certificate_pem: String,
}

impl DeviceCa {
    pub fn new(cert_file: PathBuf, key_file: PathBuf, create: bool) -> Self {
        Self { cert_file, key_file, create, loaded: OnceLock::new() }
    }

    /// No CA at all: issuing a certificate is refused (tests of other
    /// things).
    pub fn absent() -> Self {
        Self::new(PathBuf::new(), PathBuf::new(), false)
    }

    /// The CA's certificate (PEM), making the CA if it may.
    pub fn certificate_pem(&self) -> Result<String, CaError> {
        Ok(self.loaded()?.certificate_pem.clone())
    }

    /// A new key pair and certificate for the gateway `serial`, valid from
    /// the start of yesterday (UTC) for [`CERTIFICATE_DAYS`]. Its subject is
    /// `CN = serial, OU = credential`: the credential's id tells each of a
    /// gateway's certificates apart, as Mosquitto's ACL must
    /// ([`subject`]).
    pub fn issue(&self, serial: &str, credential: &str, now: DateTime<Utc>) -> Result<IssuedCertificate, CaError> {
        let mut params = CertificateParams::default();
        params.distinguished_name = DistinguishedName::new();
        params.distinguished_name.push(DnType::CommonName, serial);
        params.distinguished_name.push(DnType::OrganizationalUnitName, credential);
        params.serial_number = Some(SerialNumber::from_slice(&certificate_serial(credential)));
        self.sign(params, ExtendedKeyUsagePurpose::ClientAuth, now)
    }

    /// The certificate revocation list (PEM) of the `revoked` gateway
    /// certificates, each by its credential id with when it was revoked
    /// (to the day), valid from the start of today (UTC) for [`CRL_DAYS`].
    pub fn crl(&self, revoked: &[(String, DateTime<Utc>)], now: DateTime<Utc>) -> Result<String, CaError> {
        let loaded = self.loaded()?;
        let params = CertificateRevocationListParams {
            this_update: day!(now),
            next_update: day!(now + TimeDelta::days(CRL_DAYS)),
            // Seconds: each CRL's number is above the last one's.
            crl_number: SerialNumber::from(u64::try_from(now.timestamp()).unwrap_or_default()),
            issuing_distribution_point: None,
            revoked_certs: revoked
                .iter()
                .map(|(credential, at)| RevokedCertParams {
                    serial_number: SerialNumber::from_slice(&certificate_serial(credential)),
                    revocation_time: day!(*at),
                    reason_code: None,
                    invalidity_date: None,
                })
                .collect(),
            key_identifier_method: KeyIdMethod::Sha256,
        };
        Ok(params.signed_by(&loaded.issuer)?.pem()?)
    }

    /// A new key pair and certificate for an MQTT broker that gateways
    /// reach as any of `hosts` (DNS names or IP addresses), valid like a
    /// gateway's: gateways that trust the device CA trust the broker.
    pub fn issue_server(&self, hosts: &[String], now: DateTime<Utc>) -> Result<IssuedCertificate, CaError> {
        let mut params = CertificateParams::new(hosts.to_vec())?;
        params.distinguished_name = DistinguishedName::new();
        params.distinguished_name.push(DnType::CommonName, hosts.first().map_or("mqtt", String::as_str));
        self.sign(params, ExtendedKeyUsagePurpose::ServerAuth, now)
    }

    /// Signs `params` for `purpose` with a new key, valid from the start of
    /// yesterday (UTC) for [`CERTIFICATE_DAYS`].
    fn sign(
        &self,
        mut params: CertificateParams,
        purpose: ExtendedKeyUsagePurpose,
        now: DateTime<Utc>,
    ) -> Result<IssuedCertificate, CaError> {
        let loaded = self.loaded()?;
        let key = KeyPair::generate()?;
        params.is_ca = IsCa::ExplicitNoCa;
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        params.extended_key_usages = vec![purpose];
        if params.serial_number.is_none() {
            params.serial_number = Some(SerialNumber::from_slice(&rand::random::<[u8; 16]>()));
        }
        let start = now - TimeDelta::days(1);
        let end = now + TimeDelta::days(CERTIFICATE_DAYS);
        params.not_before = day!(start);
        params.not_after = day!(end);
        let certificate = params.signed_by(&key, &loaded.issuer)?;
        Ok(IssuedCertificate {
            certificate_pem: certificate.pem(),
            private_key_pem: key.serialize_pem(),
            fingerprint: wm_mqtt::fingerprint(certificate.der()),
            expires_at: end.date_naive().and_time(NaiveTime::MIN).and_utc(),
        })
    }

    fn loaded(&self) -> Result<Arc<Loaded>, CaError> {
        if let Some(loaded) = self.loaded.get() {
            return Ok(loaded.clone());
        }
        let loaded = Arc::new(self.load_or_create()?);
        Ok(self.loaded.get_or_init(|| loaded).clone())
    }

    fn load_or_create(&self) -> Result<Loaded, CaError> {
        match (fs::read_to_string(&self.cert_file), fs::read_to_string(&self.key_file)) {
            (Ok(certificate_pem), Ok(key_pem)) => {
                let key = KeyPair::from_pem(&key_pem).map_err(|e| self.invalid("devices.ca_key_file", &e))?;
                let issuer = Issuer::from_ca_cert_pem(&certificate_pem, key)
                    .map_err(|e| self.invalid("devices.ca_cert_file", &e))?;
                Ok(Loaded { issuer, certificate_pem })
            }
            (Err(c), Err(k)) if c.kind() == ErrorKind::NotFound && k.kind() == ErrorKind::NotFound => {
                if !self.create {
                    return Err(CaError::Missing);
                }
                self.create()
            }
            (Err(e), _) => Err(file_error("devices.ca_cert_file", &self.cert_file, &e)),
            (_, Err(e)) => Err(file_error("devices.ca_key_file", &self.key_file, &e)),
        }
    }

    /// Makes a CA and keeps it: the key first, readable by its owner alone.
    fn create(&self) -> Result<Loaded, CaError> {
        let key = KeyPair::generate()?;
        let mut params = CertificateParams::default();
        params.distinguished_name = DistinguishedName::new();
        params.distinguished_name.push(DnType::CommonName, CA_NAME);
        params.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let now = Utc::now();
        params.not_before = day!(now - TimeDelta::days(1));
        params.not_after = day!(now + TimeDelta::days(CA_DAYS));
        let certificate = params.self_signed(&key)?;
        write_new("devices.ca_key_file", &self.key_file, &key.serialize_pem(), 0o600)?;
        write_new("devices.ca_cert_file", &self.cert_file, &certificate.pem(), 0o644)?;
        tracing::info!(certificate = %self.cert_file.display(), "made the device CA");
        Ok(Loaded { certificate_pem: certificate.pem(), issuer: Issuer::new(params, key) })
    }

    fn invalid(&self, key: &'static str, e: &rcgen::Error) -> CaError {
        let path = if key == "devices.ca_key_file" { &self.key_file } else { &self.cert_file };
        CaError::File { key, path: path.clone(), reason: format!("not a usable PEM CA: {e}") }
    }
}

/// The serial number of the certificate issued as the credential
/// `credential`: a 1 (so that it reads as positive), then the id's 12 bytes.
/// A revocation list then names a revoked certificate by its credential
/// alone.
pub fn certificate_serial(credential: &str) -> Vec<u8> {
    // Ids are device ids; anything else keeps its own bytes.
    let bytes =
        DeviceId::parse(credential).map_or_else(|_| credential.as_bytes().to_vec(), |id| id.to_bytes().to_vec());
    [&[1][..], &bytes].concat()
}

/// A certificate's subject as Mosquitto's `use_subject_as_username` gives
/// it (RFC 2253: the last RDN first), for the certificate [`DeviceCa::issue`]
/// made for `serial` as the credential `credential`.
pub fn subject(serial: &str, credential: &str) -> String {
    format!("OU={credential},CN={serial}")
}

fn file_error(key: &'static str, path: &Path, e: &std::io::Error) -> CaError {
    CaError::File { key, path: path.to_owned(), reason: e.to_string() }
}

fn write_new(key: &'static str, path: &Path, content: &str, mode: u32) -> Result<(), CaError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|e| file_error(key, dir, &e))?;
    }
    let mut file =
        OpenOptions::new().write(true).create_new(true).mode(mode).open(path).map_err(|e| file_error(key, path, &e))?;
    file.write_all(content.as_bytes()).and_then(|()| file.sync_all()).map_err(|e| file_error(key, path, &e))
}
