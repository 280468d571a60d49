//! The broker's TLS listener (MQTT over TLS, 8883 by convention): its
//! certificate, and the CA whose client certificates it accepts as proof of
//! identity (a client may also present none, and sign in with a password).

use std::{net::SocketAddr, sync::Arc};

use tokio_rustls::rustls::{
    self, RootCertStore, ServerConfig,
    crypto::ring::default_provider,
    pki_types::{CertificateDer, PrivateKeyDer, pem::PemObject},
    server::WebPkiClientVerifier,
};

/// Where the TLS listener listens, and how it speaks TLS.
#[derive(Clone, Debug)]
pub struct TlsListener {
    pub listen: SocketAddr,
    pub config: Arc<ServerConfig>,
}

#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("{0}: no PEM certificate in it")]
    NoCertificate(&'static str),
    #[error("{0}: {1}")]
    Pem(&'static str, String),
    #[error("{0}: {1}")]
    Rustls(&'static str, rustls::Error),
}

/// The server configuration: the broker's certificate chain and key (PEM),
/// and, when given, the client CA (PEM) whose certificates it verifies.
pub fn server_config(
    certificate_pem: &[u8],
    key_pem: &[u8],
    client_ca_pem: Option<&[u8]>,
) -> Result<Arc<ServerConfig>, TlsError> {
    let provider = Arc::new(default_provider());
    let chain = certificates("certificate", certificate_pem)?;
    let key = PrivateKeyDer::from_pem_slice(key_pem).map_err(|e| TlsError::Pem("key", e.to_string()))?;
    let builder = ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError::Rustls("protocol versions", e))?;
    let builder = match client_ca_pem {
        Some(pem) => {
            let mut roots = RootCertStore::empty();
            for ca in certificates("client CA", pem)? {
                roots.add(ca).map_err(|e| TlsError::Rustls("client CA", e))?;
            }
            let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .allow_unauthenticated()
                .build()
                .map_err(|e| TlsError::Pem("client CA", e.to_string()))?;
            builder.with_client_cert_verifier(verifier)
        }
        None => builder.with_no_client_auth(),
    };
    let config = builder.with_single_cert(chain, key).map_err(|e| TlsError::Rustls("certificate", e))?;
    Ok(Arc::new(config))
}

fn certificates(what: &'static str, pem: &[u8]) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let all: Result<Vec<_>, _> = CertificateDer::pem_slice_iter(pem).collect();
    let all = all.map_err(|e| TlsError::Pem(what, e.to_string()))?;
    if all.is_empty() {
        return Err(TlsError::NoCertificate(what));
    }
    Ok(all)
}

/// `sha256:` and the hex SHA-256 of a certificate's DER: how a client
/// certificate is named and looked up.
pub fn fingerprint(der: &[u8]) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, der);
    let hex: String = digest.as_ref().iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}
