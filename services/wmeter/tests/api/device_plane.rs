//! The embedded broker trusts each gateway only for itself
//! (docs/device-plane.md), as Mosquitto's own clients meet it: a gateway
//! signs in with its serial number and its own secret, publishes under its
//! own topics only, subscribes to its own commands only, and a revoked or
//! rotated secret stops working at once, open connection included.

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

/// Mosquitto's command-line clients, pointed at one broker.
struct Clients {
    publish: PathBuf,
    subscribe: PathBuf,
    port: u16,
}

/// `(client id, username, password)`.
type Login<'a> = (&'a str, &'a str, &'a str);

impl Clients {
    fn of(app: &TestApp) -> Option<Clients> {
        let (publish, subscribe) = (client_tool("mosquitto_pub")?, client_tool("mosquitto_sub")?);
        Some(Clients { publish, subscribe, port: app.broker.as_ref().expect("the embedded broker").0.port() })
    }

    fn args(&self, (client_id, username, password): Login<'_>) -> Vec<String> {
        let port = self.port.to_string();
        ["-h", "127.0.0.1", "-p", &port, "-i", client_id, "-u", username, "-P", password, "-q", "1"]
            .map(str::to_owned)
            .to_vec()
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

#[tokio::test]
async fn a_gateway_publishes_and_subscribes_as_itself_only() {
    let app = spawn_app().await;
    let Some(clients) = Clients::of(&app) else { return };
    let ((a, serial_a), (b, serial_b)) = (register(&app, 1).await, register(&app, 2).await);
    let ((_, secret_a), _) = (issue_secret(&app, &a).await, issue_secret(&app, &b).await);
    let login_a = (serial_a.as_str(), serial_a.as_str(), secret_a.as_str());
    let own = format!("wmeter/v1/gw/{serial_a}/heartbeat");
    signs_in(&clients, login_a, &own).await;
    eventually("A's heartbeat is ingested", || async { lastseen(&app, &a).await.is_string().then_some(()) }).await;

    let forged = clients.publish(login_a, &format!("wmeter/v1/gw/{serial_b}/heartbeat"), &heartbeat(2)).await;
    assert!(forged.status.success(), "acknowledged and dropped, as Mosquitto does: {}", said(&forged));
    eventually("the forged publish is counted", || async { (refused(&app, "publish").await == 1).then_some(()) }).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(lastseen(&app, &b).await, Value::Null, "B's forged heartbeat was never ingested");

    for filter in ["#", "wmeter/v1/gw/+/+", &format!("wmeter/v1/gw/{serial_b}/cmd")] {
        let denied = clients.subscribe(login_a, filter, 2).await;
        assert!(said(&denied).contains("denied"), "{filter}: {}", said(&denied));
    }
    assert_eq!(refused(&app, "subscribe").await, 3);
    let own_commands = clients.subscribe(login_a, &format!("wmeter/v1/gw/{serial_a}/cmd"), 1).await;
    assert!(!said(&own_commands).contains("denied"), "{}", said(&own_commands));

    let elsewhere = clients.publish(("another-id", &serial_a, &secret_a), &own, &heartbeat(3)).await;
    assert!(!elsewhere.status.success(), "a gateway's client id is its serial number");
    let as_b = clients.publish((&serial_b, &serial_a, &secret_a), &own, &heartbeat(4)).await;
    assert!(!as_b.status.success(), "nor another gateway's");
    let wrong = clients.publish((&serial_b, &serial_b, &secret_a), &own, &heartbeat(5)).await;
    assert!(!wrong.status.success(), "A's secret is not B's");
    let shared = clients.publish(("x", "gateway", &secret_a), &own, &heartbeat(6)).await;
    assert!(!shared.status.success(), "no shared login but the configured one");
}

#[tokio::test]
async fn a_revoked_or_rotated_secret_stops_working_at_once() {
    let app = spawn_app().await;
    let Some(clients) = Clients::of(&app) else { return };
    let (id, serial) = register(&app, 1).await;
    let (credential, secret) = issue_secret(&app, &id).await;
    let login = (serial.as_str(), serial.as_str(), secret.as_str());
    let own = format!("wmeter/v1/gw/{serial}/heartbeat");
    signs_in(&clients, login, &own).await;

    // A connection that stays open, on its own commands.
    let mut listening = Command::new(&clients.subscribe)
        .args(clients.args(login))
        .args(["-t", &format!("wmeter/v1/gw/{serial}/cmd")])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(listening.try_wait().unwrap().is_none(), "connected and listening");

    let (_, rotated) = issue_secret(&app, &id).await;
    let new_login = (serial.as_str(), serial.as_str(), rotated.as_str());
    signs_in(&clients, new_login, &own).await;
    let old = clients.publish(login, &own, &heartbeat(2)).await;
    assert!(!old.status.success(), "the rotated secret is refused: {}", said(&old));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while listening.try_wait().unwrap().is_none() {
        assert!(tokio::time::Instant::now() < deadline, "the open connection of the rotated secret is closed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let list: Value = app.json(&format!("/api/devices/gateways/{id}/credentials"), 200).await;
    let current = list["credentials"][0]["id"].as_str().unwrap().to_owned();
    assert_ne!(list["credentials"][0]["id"], credential["id"]);
    let revoke = format!("/api/devices/gateways/{id}/credentials/{current}/revoke");
    let response = app.send_as(Role::Admin, Method::POST, &revoke, None).await;
    assert_eq!(response.status(), 204);
    eventually("the revoked secret is refused", || async {
        (!clients.publish(new_login, &own, &heartbeat(3)).await.status.success()).then_some(())
    })
    .await;
}

/// The shipped Mosquitto configuration, on two free ports of 127.0.0.1,
/// with its files in `auth`, without persistence.
fn shipped_config([gateways, service]: [u16; 2], auth: &std::path::Path) -> String {
    let shipped = include_str!("../../../../deploy/compose/mosquitto/mosquitto.conf");
    let mut config = shipped.to_owned();
    for (from, to) in [
        ("listener 1883 0.0.0.0", format!("listener {gateways} 127.0.0.1")),
        ("listener 1884 0.0.0.0", format!("listener {service} 127.0.0.1")),
        ("/mosquitto/auth/", format!("{}/", auth.display())),
        ("pid_file /mosquitto/run/mosquitto.pid\n", String::new()),
        ("persistence true\n", "persistence false\n".to_owned()),
        ("persistence_location /mosquitto/data/\n", String::new()),
        ("log_dest stdout", "log_dest stderr".to_owned()),
    ] {
        assert!(config.contains(from), "the shipped configuration changed: {from:?} is gone");
        config = config.replace(from, &to);
    }
    config
}

/// `wmeter mosquitto`'s one pass: the files for the registry as it is now.
async fn write_files(app: &TestApp, mqtt: &wm_telemetry_ingest::MqttSettings, auth: &std::path::Path) {
    let files = wmeter::mosquitto::render(app.db(), mqtt, auth, chrono::Utc::now()).await.unwrap();
    wmeter::mosquitto::write(auth, &files).unwrap();
}

#[tokio::test]
async fn mosquitto_enforces_the_files_wmeter_writes() {
    let app = spawn_app().await;
    let Some(mut clients) = Clients::of(&app) else { return };
    let ((a, serial_a), (b, serial_b)) = (register(&app, 1).await, register(&app, 2).await);
    let ((_, secret_a), (_, secret_b)) = (issue_secret(&app, &a).await, issue_secret(&app, &b).await);
    let auth = tempfile::tempdir().unwrap();
    wm_test_support::mqtt::readable(auth.path());
    let mqtt = wm_telemetry_ingest::MqttSettings {
        password: Some("service-password".to_owned()),
        ..wm_telemetry_ingest::MqttSettings::default()
    };
    write_files(&app, &mqtt, auth.path()).await;
    let Some((broker, [gateway_port, service_port])) =
        wm_test_support::mqtt::Mosquitto::with_config(|ports, _| shipped_config(ports, auth.path()))
    else {
        return;
    };
    let service = Clients { port: service_port, ..Clients::of(&app).unwrap() };
    clients.port = gateway_port;
    let ingest = ("ingest-1", "wmeter", "service-password");
    let (login_a, login_b) = ((&*serial_a, &*serial_a, &*secret_a), (&*serial_b, &*serial_b, &*secret_b));

    // w-meter reads the uplinks; A's own arrive, A's forgery as B does not.
    let uplinks = service.listen(ingest, "wmeter/v1/gw/+/heartbeat").await;
    let own = clients.publish(login_a, &format!("wmeter/v1/gw/{serial_a}/heartbeat"), "own").await;
    assert!(own.status.success(), "{}", said(&own));
    let forged = clients.publish(login_a, &format!("wmeter/v1/gw/{serial_b}/heartbeat"), "forged").await;
    assert!(forged.status.success(), "acknowledged and dropped: {}", said(&forged));
    let heard = uplinks.stop().await;
    assert!(heard.contains(&format!("wmeter/v1/gw/{serial_a}/heartbeat own")), "{heard}");
    assert!(!heard.contains("forged"), "{heard}");

    // B keeps its session when a connection of A claims its client id (the
    // listener names A's connection after A); A listening to everything
    // hears its own commands only.
    let b_commands = clients.listen(login_b, &format!("wmeter/v1/gw/{serial_b}/cmd")).await;
    let claim =
        clients.publish((&serial_b, &serial_a, &secret_a), &format!("wmeter/v1/gw/{serial_a}/status"), "{}").await;
    assert!(claim.status.success(), "{}", said(&claim));
    let everything = clients.listen(login_a, "#").await;
    for serial in [&serial_a, &serial_b] {
        let sent = service.publish(ingest, &format!("wmeter/v1/gw/{serial}/cmd"), &format!("to-{serial}")).await;
        assert!(sent.status.success(), "{}", said(&sent));
    }
    let (heard_a, heard_b) = (everything.stop().await, b_commands.stop().await);
    assert!(heard_a.contains(&format!("to-{serial_a}")) && !heard_a.contains(&format!("to-{serial_b}")), "{heard_a}");
    assert!(heard_b.contains(&format!("to-{serial_b}")), "B was not taken over: {heard_b}");

    // Each listener admits its own logins only.
    assert!(!clients.publish(ingest, "wmeter/v1/gw/x/heartbeat", "x").await.status.success());
    assert!(!service.publish(login_a, "wmeter/v1/gw/x/heartbeat", "x").await.status.success());

    // Revoked: written again and reloaded, the open connection is dropped.
    let open = clients.listen_for(login_a, &format!("wmeter/v1/gw/{serial_a}/cmd"), 30).await;
    let list: Value = app.json(&format!("/api/devices/gateways/{a}/credentials"), 200).await;
    let revoke =
        format!("/api/devices/gateways/{a}/credentials/{}/revoke", list["credentials"][0]["id"].as_str().unwrap());
    assert_eq!(app.send_as(Role::Operator, Method::POST, &revoke, None).await.status(), 204);
    write_files(&app, &mqtt, auth.path()).await;
    broker.reload();
    let ended = tokio::time::timeout(Duration::from_secs(5), open.child.wait_with_output()).await;
    assert!(ended.is_ok(), "the revoked gateway's connection is dropped");
    let refused = clients.publish(login_a, &format!("wmeter/v1/gw/{serial_a}/heartbeat"), "again").await;
    assert!(!refused.status.success(), "{}", said(&refused));
    assert!(clients.publish(login_b, &format!("wmeter/v1/gw/{serial_b}/heartbeat"), "b").await.status.success());
}

/// A self-signed certificate and key (PEM) for `name`; with `ca`, a CA's.
fn self_signed(name: &str, ca: bool) -> (rcgen::CertificateParams, rcgen::KeyPair, String) {
    let key = rcgen::KeyPair::generate().unwrap();
    let mut params = rcgen::CertificateParams::new(vec![name.to_owned(), "127.0.0.1".to_owned()]).unwrap();
    params.distinguished_name.push(rcgen::DnType::CommonName, name);
    if ca {
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    }
    let pem = params.self_signed(&key).unwrap().pem();
    (params, key, pem)
}

/// `mosquitto_pub` over TLS with a client certificate and key (files).
async fn publish_tls(
    clients: &Clients,
    port: u16,
    files: [&std::path::Path; 3],
    client_id: &str,
    topic: &str,
) -> Output {
    let [ca, certificate, key] = files.map(|f| f.to_str().unwrap().to_owned());
    let mut command = Command::new(&clients.publish);
    command.args(["-h", "127.0.0.1", "-p", &port.to_string(), "--cafile", &ca, "--cert", &certificate, "--key", &key]);
    command.args(["-i", client_id, "-q", "1", "-t", topic, "-m", &heartbeat(7)]);
    run(command).await
}

#[tokio::test]
async fn a_gateway_signs_in_over_tls_with_the_certificate_wmeter_signed() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, content: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        path
    };
    let (_, server_key, server_pem) = self_signed("localhost", false);
    let server = file("server.crt", &server_pem);
    let db = wm_test_support::TestDb::sqlite().await;
    let mut settings = wmeter::config::Settings::default();
    settings.database = db.settings().clone();
    settings.mqtt.tls.listen = "127.0.0.1:0".to_owned();
    settings.mqtt.tls.cert_file = server.display().to_string();
    settings.mqtt.tls.key_file = file("server.key", &server_key.serialize_pem()).display().to_string();
    let app =
        crate::helpers::spawn_with(settings, wmeter::config::Mode::Embedded, wmeter::Role::Embedded, Some(db)).await;
    let Some(clients) = Clients::of(&app) else { return };
    let port = app.broker_tls.expect("the TLS listener").port();
    let (id, serial) = register(&app, 1).await;

    let path = format!("/api/devices/gateways/{id}/credentials");
    let response =
        app.send_as(Role::Operator, Method::POST, &path, Some(serde_json::json!({"kind": "certificate"}))).await;
    assert_eq!(response.status(), 201);
    let issued: Value = response.json().await.unwrap();
    let credential = &issued["credential"];
    assert_eq!((credential["kind"].as_str(), credential["username"].as_str()), (Some("certificate"), Some(&*serial)));
    assert!(credential["fingerprint"].as_str().unwrap().starts_with("sha256:"), "{credential}");
    let expires: chrono::DateTime<chrono::Utc> = credential["expiresAt"].as_str().unwrap().parse().unwrap();
    assert!((expires - chrono::Utc::now()).num_days() >= 729, "two years: {expires}");
    let certificate = file("gateway.crt", issued["certificate"].as_str().unwrap());
    let key = file("gateway.key", issued["privateKey"].as_str().unwrap());
    assert!(issued["caCertificate"].as_str().unwrap().starts_with("-----BEGIN CERTIFICATE-----"));
    let listed: Value = app.json(&path, 200).await;
    assert!(!listed.to_string().contains("PRIVATE KEY"), "the key is never kept: {listed}");

    let own = format!("wmeter/v1/gw/{serial}/heartbeat");
    let files = [server.as_path(), certificate.as_path(), key.as_path()];
    eventually("the gateway signs in with its certificate", || async {
        publish_tls(&clients, port, files, &serial, &own).await.status.success().then_some(())
    })
    .await;
    eventually("its heartbeat is ingested", || async { lastseen(&app, &id).await.is_string().then_some(()) }).await;
    let elsewhere = publish_tls(&clients, port, files, "another-id", &own).await;
    assert!(!elsewhere.status.success(), "its client id is its serial number: {}", said(&elsewhere));

    // A certificate w-meter did not sign fails the handshake.
    let (foreign_ca, foreign_ca_key, _) = self_signed("someone else's CA", true);
    let foreign_issuer = rcgen::Issuer::new(foreign_ca, foreign_ca_key);
    let foreign_key = rcgen::KeyPair::generate().unwrap();
    let mut foreign = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    foreign.distinguished_name.push(rcgen::DnType::CommonName, &*serial);
    let foreign_pem = foreign.signed_by(&foreign_key, &foreign_issuer).unwrap().pem();
    let (foreign_cert, foreign_key) =
        (file("foreign.crt", &foreign_pem), file("foreign.key", &foreign_key.serialize_pem()));
    let refused = publish_tls(&clients, port, [server.as_path(), &foreign_cert, &foreign_key], &serial, &own).await;
    assert!(!refused.status.success(), "a foreign certificate is refused: {}", said(&refused));

    // Revoked, the certificate no longer signs in.
    let revoke = format!("{path}/{}/revoke", credential["id"].as_str().unwrap());
    assert_eq!(app.send_as(Role::Operator, Method::POST, &revoke, None).await.status(), 204);
    eventually("the revoked certificate is refused", || async {
        (!publish_tls(&clients, port, files, &serial, &own).await.status.success()).then_some(())
    })
    .await;
}

/// The TLS listener docs/device-plane.md gives Mosquitto for client
/// certificates, on `port`, trusting `ca` (the device CA) and serving
/// `pki`'s certificate.
fn certificate_listener(port: u16, ca: &std::path::Path, pki: &TestPki, auth: &std::path::Path) -> String {
    format!(
        "\nlistener {port} 127.0.0.1\ncafile {}\ncertfile {}\nkeyfile {}\nrequire_certificate true\n\
         use_subject_as_username true\nuse_username_as_clientid true\nacl_file {}/certificates.acl\n",
        ca.display(),
        pki.cert_file.display(),
        pki.key_file.display(),
        auth.display()
    )
}

/// Issues the gateway `id` a certificate; its files (CA, certificate, key)
/// in `dir`, named after `name`.
async fn certificate(app: &TestApp, id: &str, dir: &std::path::Path, name: &str) -> [std::path::PathBuf; 3] {
    let path = format!("/api/devices/gateways/{id}/credentials");
    let response =
        app.send_as(Role::Operator, Method::POST, &path, Some(serde_json::json!({"kind": "certificate"}))).await;
    assert_eq!(response.status(), 201);
    let issued: Value = response.json().await.unwrap();
    ["caCertificate", "certificate", "privateKey"].map(|field| {
        let file = dir.join(format!("{name}.{field}.pem"));
        std::fs::write(&file, issued[field].as_str().unwrap()).unwrap();
        file
    })
}

#[tokio::test]
async fn mosquitto_admits_the_certificates_wmeter_signed_until_revoked() {
    let app = spawn_app().await;
    let Some(clients) = Clients::of(&app) else { return };
    let (id, serial) = register(&app, 1).await;
    let files = tempfile::tempdir().unwrap();
    wm_test_support::mqtt::readable(files.path());
    let [device_ca, first_cert, first_key] = certificate(&app, &id, files.path(), "first").await;
    let auth = tempfile::tempdir().unwrap();
    wm_test_support::mqtt::readable(auth.path());
    let mqtt = wm_telemetry_ingest::MqttSettings {
        password: Some("service-password".to_owned()),
        ..wm_telemetry_ingest::MqttSettings::default()
    };
    write_files(&app, &mqtt, auth.path()).await;
    let pki = TestPki::new();
    let tls_port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    for file in [&device_ca, &pki.ca_file, &pki.cert_file, &pki.key_file] {
        wm_test_support::mqtt::readable(file);
    }
    let Some((broker, [_, service_port])) = wm_test_support::mqtt::Mosquitto::with_config(|ports, _| {
        shipped_config(ports, auth.path()) + &certificate_listener(tls_port, &device_ca, &pki, auth.path())
    }) else {
        return;
    };
    let service = Clients { port: service_port, ..Clients::of(&app).unwrap() };
    let ingest = ("ingest-1", "wmeter", "service-password");
    let own = format!("wmeter/v1/gw/{serial}/heartbeat");
    let heard_with = async |[certificate, key]: [&std::path::Path; 2], topic: String| {
        let uplinks = service.listen(ingest, "wmeter/v1/gw/+/heartbeat").await;
        let sent = publish_tls(&clients, tls_port, [&pki.ca_file, certificate, key], "ignored", &topic).await;
        (sent.status.success(), uplinks.stop().await)
    };
    let (sent, heard) = heard_with([&first_cert, &first_key], own.clone()).await;
    assert!(sent && heard.contains(&own), "the certificate w-meter signed is heard: {heard}");
    let (_, heard) = heard_with([&first_cert, &first_key], "wmeter/v1/gw/GW99999999/heartbeat".to_owned()).await;
    assert!(!heard.contains("GW99999999"), "nor as another gateway: {heard}");

    // A rotation revokes the first certificate: written again and reloaded,
    // it may still connect but is heard no more; the new one is.
    let [_, second_cert, second_key] = certificate(&app, &id, files.path(), "second").await;
    write_files(&app, &mqtt, auth.path()).await;
    broker.reload();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, heard) = heard_with([&first_cert, &first_key], own.clone()).await;
    assert!(!heard.contains(&own), "the revoked certificate is heard no more: {heard}");
    let (sent, heard) = heard_with([&second_cert, &second_key], own.clone()).await;
    assert!(sent && heard.contains(&own), "the new one is: {heard}");

    // A certificate another CA signed fails the handshake.
    let stranger = TestPki::new();
    let refused =
        publish_tls(&clients, tls_port, [&pki.ca_file, &stranger.cert_file, &stranger.key_file], "x", &own).await;
    assert!(!refused.status.success(), "{}", said(&refused));
}

#[tokio::test]
async fn deleting_a_gateway_closes_its_connection() {
    let app = spawn_app().await;
    let Some(clients) = Clients::of(&app) else { return };
    let (id, serial) = register(&app, 1).await;
    let (_, secret) = issue_secret(&app, &id).await;
    let login = (serial.as_str(), serial.as_str(), secret.as_str());
    // Listening only (never heard from), so it may still be deleted.
    let open = eventually("the gateway signs in", || async {
        let listening = clients.listen_for(login, &format!("wmeter/v1/gw/{serial}/cmd"), 30).await;
        let mut child = listening.child;
        child.try_wait().unwrap().is_none().then_some(child)
    })
    .await;
    let deleted = app.send_as(Role::Operator, Method::DELETE, &format!("/api/proxy/gateways/{id}"), None).await;
    assert_eq!(deleted.status(), 204, "{}", deleted.text().await.unwrap());
    let ended = tokio::time::timeout(Duration::from_secs(5), open.wait_with_output()).await;
    assert!(ended.is_ok(), "the deleted gateway's connection is closed");
}
