//! The device plane (docs/device-plane.md) as Mosquitto's own clients meet
//! it: on the embedded broker (`embedded`), over TLS with certificates
//! (`tls`), and on Mosquitto with the files `wmeter mosquitto` writes
//! (`mosquitto`). Here: the clients and what the tests share.

mod embedded;
mod mosquitto;
mod tls;

use std::{
    path::PathBuf,
    process::{Output, Stdio},
    time::Duration,
};

use reqwest::Method;
use serde_json::Value;
use tokio::process::Command;
use wm_http::auth::Role;
use wm_test_support::{mqtt::client_tool, tls::TestPki};

use crate::{
    helpers::{TestApp, eventually, spawn_app},
    suite::gateway_credentials::{issue_secret, register},
};

/// Mosquitto's command-line clients, pointed at one broker: over TLS when
/// they trust a `ca`.
struct Clients {
    publish: PathBuf,
    subscribe: PathBuf,
    port: u16,
    ca: Option<PathBuf>,
}

/// `(client id, username, password)`.
type Login<'a> = (&'a str, &'a str, &'a str);

impl Clients {
    fn of(app: &TestApp) -> Option<Clients> {
        let (publish, subscribe) = (client_tool("mosquitto_pub")?, client_tool("mosquitto_sub")?);
        let port = app.broker.as_ref().expect("the embedded broker").0.port();
        Some(Clients { publish, subscribe, port, ca: None })
    }

    fn args(&self, (client_id, username, password): Login<'_>) -> Vec<String> {
        let port = self.port.to_string();
        let mut args = vec!["-h", "127.0.0.1", "-p", &port, "-i", client_id, "-u", username, "-P", password, "-q", "1"];
        let ca = self.ca.as_ref().map(|ca| ca.display().to_string());
        args.extend(ca.as_deref().map(|ca| ["--cafile", ca]).into_iter().flatten());
        args.into_iter().map(str::to_owned).collect()
    }

    /// One QoS 1 publish; the client's output. (Run without blocking: the
    /// broker answers on this test's runtime.)
    async fn publish(&self, login: Login<'_>, topic: &str, message: &str) -> Output {
        let mut command = Command::new(&self.publish);
        command.args(self.args(login)).args(["-t", topic, "-m", message]);
        run(command).await
    }

    /// Subscribes to `filter` for at most `seconds`; the client's output.
    async fn subscribe(&self, login: Login<'_>, filter: &str, seconds: u32) -> Output {
        let mut command = Command::new(&self.subscribe);
        command.args(self.args(login)).args(["-t", filter, "-W", &seconds.to_string()]);
        run(command).await
    }
}

async fn run(mut command: Command) -> Output {
    command.kill_on_drop(true);
    tokio::time::timeout(Duration::from_secs(20), command.output()).await.expect("the client ends").unwrap()
}

/// A `mosquitto_sub` that prints what it hears (`topic payload` lines)
/// until its time is up.
struct Listening {
    child: tokio::process::Child,
}

impl Clients {
    /// Subscribes to `filter` for 3 s (or 30 s, `long`) and lets the
    /// subscription settle.
    async fn listen_for(&self, login: Login<'_>, filter: &str, seconds: u32) -> Listening {
        let mut command = Command::new(&self.subscribe);
        command
            .args(self.args(login))
            .args(["-t", filter, "-v", "-W", &seconds.to_string()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        let child = command.spawn().unwrap();
        tokio::time::sleep(Duration::from_millis(500)).await;
        Listening { child }
    }

    async fn listen(&self, login: Login<'_>, filter: &str) -> Listening {
        self.listen_for(login, filter, 3).await
    }
}

impl Listening {
    /// What it heard, once its time is up.
    async fn stop(self) -> String {
        said(&self.child.wait_with_output().await.unwrap())
    }
}

fn said(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

fn heartbeat(id: u32) -> String {
    format!(r#"{{"messageId": {id}, "timestamp": "{}"}}"#, chrono::Utc::now().to_rfc3339())
}

async fn lastseen(app: &TestApp, id: &str) -> Value {
    app.json(&format!("/api/proxy/gateways/{id}"), 200).await["lastseen"].clone()
}

/// The `wmeter_mqtt_refused` count for `action` in `/metrics`.
async fn refused(app: &TestApp, action: &str) -> u64 {
    let metrics = app.get("/metrics").await.text().await.unwrap();
    let label = format!("action=\"{action}\"");
    let line = metrics.lines().find(|l| l.starts_with("wmeter_mqtt_refused_total{") && l.contains(&label));
    line.and_then(|l| l.rsplit(' ').next()).map_or(0, |n| n.parse().unwrap())
}

/// Waits until ingest has the secret: the gateway can sign in.
async fn signs_in(clients: &Clients, login: Login<'_>, topic: &str) {
    eventually("the gateway signs in", || async {
        clients.publish(login, topic, &heartbeat(1)).await.status.success().then_some(())
    })
    .await;
}

/// The arguments that sign a client in on `port` over TLS, trusting
/// `files[0]` and presenting the certificate and key `files[1..]`.
fn tls_args(port: u16, files: [&std::path::Path; 3]) -> Vec<String> {
    let [ca, certificate, key] = files.map(|f| f.display().to_string());
    let port = port.to_string();
    ["-h", "127.0.0.1", "-p", &port, "--cafile", &ca, "--cert", &certificate, "--key", &key].map(str::to_owned).to_vec()
}

/// `mosquitto_sub` over TLS with a client certificate and key (files),
/// listening to `filter` for `seconds`, once its subscription settled.
async fn listen_tls(
    clients: &Clients,
    port: u16,
    files: [&std::path::Path; 3],
    filter: &str,
    seconds: u32,
) -> Listening {
    let mut command = Command::new(&clients.subscribe);
    command.args(tls_args(port, files)).args(["-q", "1", "-t", filter, "-v", "-W", &seconds.to_string()]);
    let child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).kill_on_drop(true).spawn().unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    Listening { child }
}

/// `mosquitto_pub` over TLS with a client certificate and key (files).
async fn publish_tls(
    clients: &Clients,
    port: u16,
    files: [&std::path::Path; 3],
    client_id: &str,
    topic: &str,
) -> Output {
    let mut command = Command::new(&clients.publish);
    command.args(tls_args(port, files));
    command.args(["-i", client_id, "-q", "1", "-t", topic, "-m", &heartbeat(7)]);
    run(command).await
}
