//! Where the real servers started by `make test` listen.

/// PostgreSQL superuser URL, e.g. `postgres://postgres@127.0.0.1:15432/postgres`.
pub const PG_URL: &str = "WM_TEST_PG_URL";
/// The CA that signed that server's TLS certificate (`deploy/dev/postgres.sh`).
pub const PG_CA: &str = "WM_TEST_PG_CA";
/// Kafka bootstrap servers, e.g. `127.0.0.1:19092`.
pub const KAFKA_BROKERS: &str = "WM_TEST_KAFKA_BROKERS";
/// The `mosquitto` binary; each test starts a broker of its own with it.
pub const MOSQUITTO: &str = "WM_TEST_MOSQUITTO";
/// The `tansu` broker binary, for tests that run a broker of their own.
pub const TANSU: &str = "WM_TEST_TANSU";
/// A python with aiosmtpd, which runs `deploy/dev/smtp-sink.py`.
pub const SMTP_PYTHON: &str = "WM_TEST_SMTP_PYTHON";
/// Set to `1` to turn a missing server into a failure instead of a skip.
pub const REQUIRE_SERVERS: &str = "WM_REQUIRE_SERVERS";

/// The value of `var`, or `None` after printing why the test is skipped.
///
/// # Panics
/// When the variable is unset and [`REQUIRE_SERVERS`] is `1`: a required
/// server is missing, and the test must fail rather than pass silently.
pub fn find(var: &str) -> Option<String> {
    match std::env::var(var) {
        Ok(value) if !value.is_empty() => Some(value),
        _ if std::env::var(REQUIRE_SERVERS).as_deref() == Ok("1") => {
            panic!("{var} is not set but {REQUIRE_SERVERS}=1: start the test servers (make test does)")
        }
        _ => {
            eprintln!("skipping: {var} not set (make test starts the real servers)");
            None
        }
    }
}

pub fn postgres_url() -> Option<String> {
    find(PG_URL)
}

pub fn postgres_ca() -> Option<String> {
    find(PG_CA)
}

pub fn kafka_brokers() -> Option<String> {
    find(KAFKA_BROKERS)
}

pub fn mosquitto() -> Option<String> {
    find(MOSQUITTO)
}

pub fn tansu() -> Option<String> {
    find(TANSU)
}

pub fn smtp_python() -> Option<String> {
    find(SMTP_PYTHON)
}

/// A Kafka-protocol broker of the test's own (tansu, in memory), listening
/// on a free port but advertising `advertised`: with a [`crate::proxy::Proxy`]
/// there, clients reach it only through the proxy. Killed when dropped.
#[derive(Debug)]
pub struct OwnBroker {
    pub port: u16,
    child: std::process::Child,
}

impl OwnBroker {
    /// Starts the broker on `port`, advertising `advertised`; waits until it listens.
    pub async fn start(port: u16, advertised: std::net::SocketAddr) -> Option<OwnBroker> {
        let binary = tansu()?;
        let child = std::process::Command::new(binary)
            .args(["broker", "--listener-url", &format!("tcp://127.0.0.1:{port}")])
            .args(["--advertised-listener-url", &format!("tcp://{advertised}")])
            .args(["--storage-engine", "memory://tansu/"])
            .env("RUST_LOG", "warn")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("run tansu");
        let broker = OwnBroker { port, child };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_err() {
            assert!(std::time::Instant::now() < deadline, "tansu did not listen within 30 s");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        Some(broker)
    }
}

impl Drop for OwnBroker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
