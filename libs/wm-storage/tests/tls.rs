//! PostgreSQL over TLS with `sslmode=verify-full`: the server's certificate
//! must chain to `sslrootcert` and name the host, or the connection is
//! refused with a reason (docs/configuration.md, database.url).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking

use std::process::Command;

use wm_storage::{DatabaseSettings, Db};
use wm_test_support::servers;

/// The error and every source under it, as the CLI prints them.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}

#[tokio::test]
async fn verify_full_connects_with_the_server_s_ca_and_refuses_another() {
    let (Some(url), Some(ca)) = (servers::postgres_url(), servers::postgres_ca()) else { return };
    let base = url.split_once('?').map_or(url.as_str(), |(base, _)| base);

    let trusted = DatabaseSettings::with_url(format!("{base}?sslmode=verify-full&sslrootcert={ca}"));
    let db = Db::connect(&trusted).await.unwrap();
    let sql = "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()";
    let encrypted: bool = sqlx::query_scalar(sql).fetch_one(db.postgres().unwrap()).await.unwrap();
    assert!(encrypted, "the session is encrypted");
    db.close().await;

    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other-ca.crt");
    let made = Command::new("openssl")
        .args(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1"])
        .args(["-subj", "/CN=another CA", "-keyout"])
        .arg(dir.path().join("other-ca.key"))
        .arg("-out")
        .arg(&other)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let distrusted = DatabaseSettings::with_url(format!("{base}?sslmode=verify-full&sslrootcert={}", other.display()));
    let error = Db::connect(&distrusted).await.expect_err("refused");
    let said = chain(&error);
    assert!(said.starts_with("cannot connect to the postgres database"), "{said}");
    assert!(said.contains("certificate"), "says the certificate is the problem: {said}");
}
