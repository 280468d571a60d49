//! The `wmeter` binary as an operator meets it: configuration errors, the
//! embedded server's banner and its SIGTERM shutdown.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

use std::{
    io::{BufRead, BufReader},
    process::{Command, Output, Stdio},
    time::Duration,
};

fn wmeter() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_wmeter"));
    // Start from a clean slate: only what each test sets.
    for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("WMETER_")) {
        command.env_remove(key);
    }
    command.env("WMETER_LOG__FORMAT", "pretty");
    command
}

fn run(command: &mut Command) -> (i32, String) {
    let Output { status, stderr, .. } = command.output().unwrap();
    (status.code().unwrap_or(-1), String::from_utf8_lossy(&stderr).into_owned())
}

#[test]
fn unknown_database_scheme_exits_2_naming_the_key() {
    let (code, stderr) = run(wmeter().args(["config", "print"]).env("WMETER_DATABASE__URL", "mysql://db/wm"));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("database.url: unknown database scheme 'mysql'; expected sqlite://<file> or postgres://"),
        "{stderr}"
    );
}

#[test]
fn bad_port_exits_2_naming_the_key_and_source() {
    let (code, stderr) = run(wmeter().args(["serve"]).env("WMETER_HTTP__PORT", "70000"));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("http.port: 70000 is not a port; expected a number from 0 to 65535"), "{stderr}");
    assert!(stderr.contains("WMETER_"), "names where the value came from: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn distributed_mode_without_brokers_exits_2() {
    let (code, stderr) = run(wmeter().args(["run", "device-registry"]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("event_log.brokers: required in distributed mode"), "{stderr}");
}

#[test]
fn unknown_service_is_a_usage_error() {
    let (code, stderr) = run(wmeter().args(["run", "billing"]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("invalid value 'billing'"), "{stderr}");
}

#[test]
fn unrelated_wmeter_variables_are_not_settings() {
    let mut file = tempfile::Builder::new().suffix(".toml").tempfile().unwrap();
    std::io::Write::write_all(&mut file, b"[http]\nport = 9191\n").unwrap();
    let output = wmeter()
        .args(["config", "print"])
        .env("WMETER_CONFIG", file.path())
        // What Kubernetes injects for a Service named wmeter-gateway.
        .env("WMETER_GATEWAY_PORT", "tcp://10.0.0.7:8080")
        .env("WMETER_GATEWAY_SERVICE_HOST", "10.0.0.7")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("port = 9191"), "WMETER_CONFIG names the file: {stdout}");
}

#[test]
fn config_print_shows_effective_values_with_password_redacted() {
    let mut file = tempfile::Builder::new().suffix(".toml").tempfile().unwrap();
    let toml = "[event_log]\nkind = \"kafka\"\nbrokers = \"kafka:9092\"\n\
                [event_log.options]\n\"sasl.password\" = \"kafka-secret\"\n";
    std::io::Write::write_all(&mut file, toml.as_bytes()).unwrap();
    let output = wmeter()
        .args(["--config", file.path().to_str().unwrap(), "config", "print", "--mode", "distributed"])
        .env("WMETER_DATABASE__URL", "postgres://wm:p@ss@db:5432/wm?password=hunter2")
        .env("WMETER_AUTH__JWT_KEY", "jwt-key-jwt-key-jwt-key-jwt-key-0")
        .env("WMETER_HTTP__PORT", "9090")
        .env("WMETER_MQTT__PASSWORD", "mqtt-secret")
        .env("WMETER_MQTT__GATEWAY_PASSWORD", "gateway-secret")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("port = 9090"), "{stdout}");
    assert!(stdout.contains("postgres://wm:***@db:5432/wm?password=***"), "{stdout}");
    assert!(!stdout.contains("hunter2") && !stdout.contains("p@ss"), "{stdout}");
    assert!(stdout.contains("jwt_key = \"***\"") && !stdout.contains("jwt-key-"), "{stdout}");
    assert!(stdout.contains("\"sasl.password\" = \"***\""), "{stdout}");
    assert!(!stdout.contains("kafka-secret"), "{stdout}");
    assert!(!stdout.contains("mqtt-secret") && !stdout.contains("gateway-secret"), "{stdout}");
    assert!(stdout.contains("gateway_password = \"***\""), "{stdout}");
}

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

/// `wmeter` with `args` on a free port, keeping its database, key and
/// (empty) dashboard in `dir`; its standard output is piped.
fn serve(dir: &std::path::Path, args: &[&str]) -> std::process::Child {
    wmeter()
        .args(args)
        .env("WMETER_HTTP__PORT", "0")
        .env("WMETER_MQTT__LISTEN", "127.0.0.1:0")
        .env("WMETER_DATABASE__URL", format!("sqlite://{}/wm.db", dir.display()))
        .env("WMETER_WEB__STATIC_DIR", dir)
        .env("WMETER_AUTH__KEY_FILE", dir.join("jwt.key"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn wait(child: &mut std::process::Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let started = std::time::Instant::now();
    while started.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    None
}

mod plain_http {
    /// The status and the whole response (headers and body) of a JSON POST.
    pub fn post_json(url: &str, body: &str) -> (u16, String) {
        use std::io::{Read, Write};
        let rest = url.strip_prefix("http://").unwrap();
        let (host, path) = rest.split_once('/').unwrap();
        let mut stream = std::net::TcpStream::connect(host).unwrap();
        write!(
            stream,
            "POST /{path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status = response.split_whitespace().nth(1).and_then(|code| code.parse().ok()).unwrap_or(0);
        (status, response)
    }

    /// A status code from a plain HTTP/1.1 GET, without pulling a blocking
    /// HTTP client into the build.
    pub fn get_status(url: &str) -> u16 {
        use std::io::{Read, Write};
        let rest = url.strip_prefix("http://").unwrap();
        let (host, path) = rest.split_once('/').map_or((rest, "/"), |(h, p)| (h, p));
        let path = if path.starts_with('/') { path.to_owned() } else { format!("/{path}") };
        let mut stream = std::net::TcpStream::connect(host).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response.split_whitespace().nth(1).and_then(|code| code.parse().ok()).unwrap_or(0)
    }
}

#[test]
fn migrate_creates_the_schema_and_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("nested/wm.db");
    for _ in 0..2 {
        let output = wmeter()
            .args(["migrate"])
            .env("WMETER_DATABASE__URL", format!("sqlite://{}", db.display()))
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            "eventlog: up to date\nauth: up to date\noutbox: up to date\ncheckpoints: up to date\n\
             device-registry: up to date\ntelemetry-ingest: up to date\n"
        );
    }
    assert!(db.is_file());
}

#[test]
fn replay_runs_against_the_configured_log() {
    let dir = tempfile::tempdir().unwrap();
    let output = wmeter()
        .args(["replay"])
        .env("WMETER_DATABASE__URL", format!("sqlite://{}/wm.db", dir.path().display()))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "device-registry.devices: rebuilt from 0 events\ndevice-registry.state: rebuilt from 0 events\n\
         telemetry-ingest.directory: rebuilt from 0 events\ntelemetry-ingest.telemetry: rebuilt from 0 events\n"
    );
}

#[test]
fn users_are_added_listed_and_disabled() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}/wm.db", dir.path().display());
    let user = |args: &[&str], stdin: &str| {
        let mut child = wmeter()
            .arg("user")
            .args(args)
            .env("WMETER_DATABASE__URL", &db)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), stdin.as_bytes()).unwrap();
        let output = child.wait_with_output().unwrap();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (output.status.code().unwrap_or(-1), text(&output.stdout), text(&output.stderr))
    };
    let (code, out, err) = user(&["add", "--username", "alice", "--role", "operator"], "a-good-password\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("created alice (operator) with id "), "{out}");
    assert!(!out.contains("a-good-password") && !err.contains("a-good-password"));

    let (code, _, err) = user(&["add", "--username", "ALICE", "--role", "viewer"], "another-password\n");
    assert_eq!(code, 1);
    assert!(err.contains("the username 'ALICE' is taken"), "{err}");

    let (code, _, err) = user(&["add", "--username", "bob", "--role", "viewer"], "short\n");
    assert_eq!(code, 1);
    assert!(err.contains("the password must be at least 8 characters"), "{err}");

    let (code, _, err) = user(&["add", "--username", "bob", "--role", "root"], "");
    assert_eq!(code, 2, "an unknown role is a usage error: {err}");

    let (code, out, _) = user(&["disable", "alice"], "");
    assert_eq!((code, out.as_str()), (0, "disabled alice; 0 sessions revoked\n"));
    let (code, out, _) = user(&["list"], "");
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[1].contains(" alice ") && lines[1].contains(" operator ") && lines[1].contains(" disabled "),
        "{out}"
    );

    let (code, _, err) = user(&["disable", "nobody"], "");
    assert_eq!(code, 1);
    assert!(err.contains("no user is named 'nobody'"), "{err}");
}

#[test]
fn the_demo_creates_users_once_and_their_password_signs_in() {
    let dir = tempfile::tempdir().unwrap();
    let start = || {
        let mut child = serve(dir.path(), &["serve", "--demo"]);
        // The banner ends with the line about the demo network.
        let mut banner = Vec::new();
        for line in BufReader::new(child.stdout.take().unwrap()).lines().map_while(Result::ok) {
            let last = line.starts_with("demo mode");
            banner.push(line);
            if last {
                break;
            }
        }
        (child, banner)
    };
    let (mut child, banner) = start();
    let url = banner[0].strip_prefix("w-meter is running at ").expect(&banner[0]).to_owned();
    let admin = banner.iter().find_map(|l| l.strip_prefix("demo login: admin / ")).expect("the admin password");
    let password = admin.split_whitespace().next().unwrap();
    assert!(banner.iter().any(|l| l.starts_with("demo login: viewer / ")), "{banner:?}");
    let body = format!(r#"{{"username":"admin","password":"{password}"}}"#);
    let (status, response) = plain_http::post_json(&format!("{url}/api/auth/login"), &body);
    assert_eq!(status, 200, "{response}");
    assert!(response.contains(r#""role":"admin""#), "{response}");
    assert!(response.contains("Set-Cookie: wmeter_rt=") || response.contains("set-cookie: wmeter_rt="), "{response}");
    Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    wait(&mut child, Duration::from_secs(30)).expect("stops on SIGTERM");

    let (mut again, banner) = start();
    assert!(banner.iter().all(|l| !l.starts_with("demo login:")), "passwords are shown once: {banner:?}");
    Command::new("kill").args(["-TERM", &again.id().to_string()]).status().unwrap();
    wait(&mut again, Duration::from_secs(30)).expect("stops on SIGTERM");
}
