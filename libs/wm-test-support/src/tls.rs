//! TLS for tests: a CA of the test's own with a server certificate for
//! 127.0.0.1, and a proxy that ends TLS in front of a plain server (the
//! Kafka-protocol broker, whose own TLS does not start: Tansu 0.1.2 refuses
//! `--cert` with `--key`).

use std::{net::SocketAddr, path::PathBuf, sync::Arc};

use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

/// A CA and a server certificate for `127.0.0.1` and `localhost`, as PEM
/// files in a folder of their own (removed when dropped).
#[derive(Debug)]
pub struct TestPki {
    pub ca_file: PathBuf,
    pub cert_file: PathBuf,
    pub key_file: PathBuf,
    _dir: tempfile::TempDir,
}

impl TestPki {
    /// # Panics
    /// When a certificate cannot be made, which a working build never sees.
    pub fn new() -> TestPki {
        let dir = tempfile::tempdir().expect("a folder");
        let ca_key = rcgen::KeyPair::generate().expect("a key");
        let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
        ca.distinguished_name.push(rcgen::DnType::CommonName, "w-meter test CA");
        ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        let ca_pem = ca.self_signed(&ca_key).expect("the CA").pem();
        let issuer = rcgen::Issuer::new(ca, ca_key);
        let key = rcgen::KeyPair::generate().expect("a key");
        let server = rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
            .expect("server parameters")
            .signed_by(&key, &issuer)
            .expect("the server certificate");
        let write = |name: &str, content: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, content).expect("write");
            path
        };
        TestPki {
            ca_file: write("ca.crt", &ca_pem),
            cert_file: write("server.crt", &server.pem()),
            key_file: write("server.key", &key.serialize_pem()),
            _dir: dir,
        }
    }
}

impl Default for TestPki {
    fn default() -> Self {
        Self::new()
    }
}

/// Ends TLS (with `pki`'s server certificate) on a free port of 127.0.0.1
/// and forwards the plain bytes to `target`; stops when dropped.
#[derive(Debug)]
pub struct TlsProxy {
    pub addr: SocketAddr,
    accepting: tokio::task::JoinHandle<()>,
}

impl TlsProxy {
    /// # Panics
    /// When it cannot listen or read `pki`'s files.
    pub async fn start(pki: &TestPki, target: SocketAddr) -> TlsProxy {
        let (certificate, key) =
            (std::fs::read(&pki.cert_file).expect("cert"), std::fs::read(&pki.key_file).expect("key"));
        let config = wm_mqtt::server_config(&certificate, &key, None).expect("a TLS configuration");
        let acceptor = TlsAcceptor::from(Arc::clone(&config));
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let addr = listener.local_addr().expect("its address");
        let accepting = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(client).await else { return };
                    let Ok(mut server) = tokio::net::TcpStream::connect(target).await else { return };
                    let _ = tokio::io::copy_bidirectional(&mut tls, &mut server).await;
                });
            }
        });
        TlsProxy { addr, accepting }
    }
}

impl Drop for TlsProxy {
    fn drop(&mut self) {
        self.accepting.abort();
    }
}
