//! Where the real servers started by `make test` listen.

/// PostgreSQL superuser URL, e.g. `postgres://postgres@127.0.0.1:15432/postgres`.
pub const PG_URL: &str = "WM_TEST_PG_URL";
/// Kafka bootstrap servers, e.g. `127.0.0.1:19092`.
pub const KAFKA_BROKERS: &str = "WM_TEST_KAFKA_BROKERS";
/// The `mosquitto` binary; each test starts a broker of its own with it.
pub const MOSQUITTO: &str = "WM_TEST_MOSQUITTO";
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

pub fn kafka_brokers() -> Option<String> {
    find(KAFKA_BROKERS)
}

pub fn mosquitto() -> Option<String> {
    find(MOSQUITTO)
}
