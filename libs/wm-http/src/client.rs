//! Outgoing HTTP: reqwest over rustls, with the ring crypto provider the
//! rest of the binary (sqlx) already links. reqwest takes the process's
//! default provider, so every client is built here, which installs it
//! first; a client built elsewhere would panic.

use std::sync::Once;

static CRYPTO: Once = Once::new();

/// Makes ring the process's TLS crypto provider, once (the OTLP exporter
/// builds its own client and needs it too).
pub fn install_crypto() {
    CRYPTO.call_once(|| {
        // Another part of the process may have installed one already: it serves as well.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// A client builder whose TLS works: checks servers against the system's roots.
pub fn builder() -> reqwest::ClientBuilder {
    install_crypto();
    reqwest::Client::builder()
}

/// A client with reqwest's defaults.
///
/// # Panics
/// When the TLS backend cannot start, which a working build never sees.
pub fn client() -> reqwest::Client {
    builder().build().expect("an HTTP client")
}
