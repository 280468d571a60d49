//! `wmeter serve` prints where it listens and stops cleanly on SIGTERM.

use std::{
    io::{BufRead, BufReader},
    process::{Command, Stdio},
    time::Duration,
};

use crate::{Running, plain_http, serve, serve_command, wait};

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

#[test]
fn serve_keeps_serving_when_its_stdout_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let port = wm_test_support::ports::for_server().to_string();
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut child = Running::spawn(
        serve_command(dir.path(), &["serve", "--demo"], &[])
            .env("WMETER_HTTP__PORT", &port)
            .stdout(Stdio::from(writer))
            .stderr(Stdio::null()),
    );
    let url = format!("http://127.0.0.1:{port}/healthz");
    let started = std::time::Instant::now();
    let listening = || std::net::TcpStream::connect(format!("127.0.0.1:{port}")).is_ok();
    while !(listening() && plain_http::get_status(&url) == 200) {
        assert!(child.try_wait().unwrap().is_none(), "wmeter died when its banner could not be printed");
        assert!(started.elapsed() < Duration::from_secs(60), "not serving within 60 s");
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_secs(1));
    assert!(child.try_wait().unwrap().is_none(), "still running after the whole banner");
    child.kill().unwrap();
    child.wait().unwrap();
}
