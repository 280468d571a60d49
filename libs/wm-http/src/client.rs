//! Outgoing HTTP: reqwest over rustls, with the ring crypto provider the
//! rest of the binary (sqlx) already links. reqwest takes the process's
//! default provider, so every client is built here, which installs it
//! first; a client built elsewhere would panic.

use std::{sync::Once, time::Duration};

static CRYPTO: Once = Once::new();

/// How long a client keeps an idle connection for the next request: below
/// the 5 s keep-alive of actix-web (w-meter's own servers) and of most
/// servers' defaults. A connection kept longer than the server keeps it is
/// closed by the server just as a request goes out on it, and that request
/// fails with an incomplete message; a shorter wait costs a new connection.
pub const POOL_IDLE: Duration = Duration::from_secs(4);

/// Makes ring the process's TLS crypto provider, once (the OTLP exporter
/// builds its own client and needs it too).
pub fn install_crypto() {
    CRYPTO.call_once(|| {
        // Another part of the process may have installed one already: it serves as well.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// A client builder whose TLS works (checks servers against the system's
/// roots) and whose idle connections go before the server closes them.
pub fn builder() -> reqwest::ClientBuilder {
    install_crypto();
    reqwest::Client::builder().pool_idle_timeout(POOL_IDLE)
}

/// A client with reqwest's defaults.
///
/// # Panics
/// When the TLS backend cannot start, which a working build never sees.
pub fn client() -> reqwest::Client {
    builder().build().expect("an HTTP client")
}

#[cfg(test)]
mod tests {
    use std::sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    };

    use actix_web::{App, HttpResponse, HttpServer, web};

    use super::*;

    /// A server with actix-web's default keep-alive that counts the
    /// connections its clients open, and its URL.
    fn counting_server(connections: Arc<AtomicUsize>) -> (actix_web::dev::ServerHandle, String) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        let server = HttpServer::new(|| App::new().route("/", web::get().to(HttpResponse::NoContent)))
            .on_connect(move |_, _| {
                connections.fetch_add(1, Ordering::SeqCst);
            })
            .workers(1)
            .disable_signals()
            .listen(listener)
            .unwrap()
            .run();
        let handle = server.handle();
        actix_web::rt::spawn(server);
        (handle, url)
    }

    #[actix_web::test]
    async fn an_idle_connection_is_reused_only_before_the_server_would_close_it() {
        let connections = Arc::new(AtomicUsize::new(0));
        let (server, url) = counting_server(connections.clone());
        let client = client();
        for _ in 0..2 {
            assert_eq!(client.get(&url).send().await.unwrap().status(), 204);
        }
        assert_eq!(connections.load(Ordering::SeqCst), 1, "back to back, one connection serves both");
        tokio::time::sleep(POOL_IDLE + Duration::from_millis(500)).await;
        assert_eq!(client.get(&url).send().await.unwrap().status(), 204);
        assert_eq!(connections.load(Ordering::SeqCst), 2, "after the pool's wait, a new connection");
        server.stop(false).await;
    }
}
