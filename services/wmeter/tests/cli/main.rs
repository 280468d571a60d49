//! The `wmeter` binary as an operator meets it: configuration errors, the
//! embedded server's banner and its SIGTERM shutdown, users, migrations,
//! the demo and the simulator.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

mod backup;
mod broker_certificate;
mod config;
mod crash;
mod demo;
mod gateway;
mod mosquitto;
mod schema;
mod seed;
mod serve;
mod simulate;
mod topics;
mod upgrade;
mod users;

use std::{
    process::{Child, Command, Output, Stdio},
    time::Duration,
};

pub fn wmeter() -> Command {
    wmeter_at(env!("CARGO_BIN_EXE_wmeter").as_ref())
}

/// The `wmeter` at `binary` (another release's, say), with no `WMETER_`
/// variable but those a test sets.
pub fn wmeter_at(binary: &std::path::Path) -> Command {
    let mut command = Command::new(binary);
    // Start from a clean slate: only what each test sets.
    for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("WMETER_")) {
        command.env_remove(key);
    }
    command.env("WMETER_LOG__FORMAT", "pretty");
    command
}

pub fn run(command: &mut Command) -> (i32, String) {
    let Output { status, stderr, .. } = command.output().unwrap();
    (status.code().unwrap_or(-1), String::from_utf8_lossy(&stderr).into_owned())
}

/// `wmeter` with `args` on a free port, keeping its database, key and
/// (empty) dashboard in `dir`; its standard output is piped.
pub fn serve(dir: &std::path::Path, args: &[&str]) -> Running {
    serve_with(dir, args, &[])
}

/// [`serve`] with more environment variables.
pub fn serve_with(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> Running {
    Running::spawn(serve_command(dir, args, env).stdout(Stdio::piped()).stderr(Stdio::null()))
}

/// A process a test started, killed when the test is done with it, a
/// failed assertion included: no `wmeter serve` outlives its test.
#[derive(Debug)]
pub struct Running(Child);

impl Running {
    pub fn spawn(command: &mut Command) -> Self {
        Self(command.spawn().unwrap())
    }
}

impl std::ops::Deref for Running {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for Running {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        // Already gone when the test stopped it: both calls then do nothing.
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The command [`serve_with`] spawns.
pub fn serve_command(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> Command {
    on_folder(wmeter(), dir, args, env)
}

/// `command` (a `wmeter`) with `args`, on the database, key and dashboard
/// in `dir`, on free ports.
pub fn on_folder(mut command: Command, dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> Command {
    command
        .args(args)
        .envs(env.iter().copied())
        .env("WMETER_HTTP__PORT", "0")
        .env("WMETER_MQTT__LISTEN", "127.0.0.1:0")
        .env("WMETER_DATABASE__URL", format!("sqlite://{}/wm.db", dir.display()))
        .env("WMETER_WEB__STATIC_DIR", dir)
        .env("WMETER_AUTH__KEY_FILE", dir.join("jwt.key"))
        .env("WMETER_DEVICES__CA_CERT_FILE", dir.join("device-ca.crt"))
        .env("WMETER_DEVICES__CA_KEY_FILE", dir.join("device-ca.key"));
    command
}

/// `wmeter user add` on the database in `dir` ([`serve_command`]'s), the
/// password on standard input.
pub fn add_user(dir: &std::path::Path, username: &str, role: &str, password: &str) {
    let mut add = serve_command(dir, &["user", "add", "--username", username, "--role", role], &[])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut add.stdin.take().unwrap(), format!("{password}\n").as_bytes()).unwrap();
    assert!(add.wait().unwrap().success());
}

pub fn wait(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
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

/// Plain HTTP/1.1 requests, without pulling a blocking HTTP client into the
/// build.
pub mod plain_http {
    /// The status and the whole response (headers and body).
    pub fn send(method: &str, url: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
        use std::io::{Read, Write};
        let rest = url.strip_prefix("http://").unwrap();
        let (host, path) = rest.split_once('/').map_or((rest, ""), |(h, p)| (h, p));
        let mut stream = std::net::TcpStream::connect(host).unwrap();
        let mut request = format!("{method} /{path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status = response.split_whitespace().nth(1).and_then(|code| code.parse().ok()).unwrap_or(0);
        (status, response)
    }

    pub fn post_json(url: &str, body: &str) -> (u16, String) {
        send("POST", url, &[("Content-Type", "application/json")], body)
    }

    pub fn get_status(url: &str) -> u16 {
        send("GET", url, &[], "").0
    }

    /// Signs `username` in; their access token.
    pub fn sign_in(url: &str, username: &str, password: &str) -> String {
        let body = serde_json::json!({ "username": username, "password": password }).to_string();
        let (status, response) = post_json(&format!("{url}/api/auth/login"), &body);
        assert_eq!(status, 200, "{response}");
        let signed_in: serde_json::Value = serde_json::from_str(response.split_once("\r\n\r\n").unwrap().1).unwrap();
        signed_in["accessToken"].as_str().unwrap().to_owned()
    }

    /// The JSON body of a GET with a bearer token.
    pub fn get_json(url: &str, token: &str) -> serde_json::Value {
        let (status, response) = send("GET", url, &[("Authorization", &format!("Bearer {token}"))], "");
        assert_eq!(status, 200, "{response}");
        serde_json::from_str(response.split_once("\r\n\r\n").unwrap().1).unwrap()
    }
}
