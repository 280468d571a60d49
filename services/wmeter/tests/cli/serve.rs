//! `wmeter serve` prints where it listens and stops cleanly on SIGTERM.

use std::{
    io::{BufRead, BufReader},
    process::Command,
    time::Duration,
};

use crate::{plain_http, serve, wait};

#[test]
fn serve_prints_its_url_and_stops_cleanly_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = serve(dir.path(), &["serve"]);
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let banner = lines.next().unwrap().unwrap();
    let url = banner.strip_prefix("w-meter is running at ").expect(&banner).to_owned();
    let health = plain_http::get_status(&format!("{url}/healthz"));
    assert_eq!(health, 200);
    let killed = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let status = wait(&mut child, Duration::from_secs(30)).expect("wmeter stops within 30 s of SIGTERM");
    assert!(status.success(), "graceful shutdown exits 0, got {status}");
    let key = std::fs::metadata(dir.path().join("jwt.key")).expect("the embedded mode keeps its JWT key");
    assert_eq!(std::os::unix::fs::PermissionsExt::mode(&key.permissions()) & 0o777, 0o600);
}
