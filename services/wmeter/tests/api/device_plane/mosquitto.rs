//! Debian's Mosquitto with the configuration w-meter ships
//! (deploy/mosquitto/mosquitto.conf), the files `wmeter mosquitto` writes
//! and the certificate `wmeter broker-certificate` makes: secrets on the
//! gateway listener, plain and over TLS, and client certificates on the
//! certificate listener.

use super::*;

/// The shipped configuration's listeners, on free ports of 127.0.0.1.
struct Listeners {
    gateways: u16,
    service: u16,
    certificates: u16,
    secrets_tls: u16,
}

/// Debian's Mosquitto running the shipped configuration, with its files.
struct Shipped {
    broker: wm_test_support::mqtt::Mosquitto,
    ports: Listeners,
    /// `wmeter mosquitto`'s files, and the settings they were written with.
    auth: tempfile::TempDir,
    mqtt: wm_telemetry_ingest::MqttSettings,
    /// `wmeter broker-certificate`'s files.
    tls: tempfile::TempDir,
}

impl Shipped {
    /// Starts it for `app`'s registry as it is now; `None` without Mosquitto.
    async fn start(app: &TestApp) -> Option<Shipped> {
        let (auth, mqtt) = auth_files(app).await;
        let tls = tempfile::tempdir().unwrap();
        let hosts = ["localhost".to_owned(), "127.0.0.1".to_owned()];
        wmeter::broker_certificate::ensure(&app.device_ca(), tls.path(), &hosts, chrono::Utc::now()).unwrap();
        // Mosquitto may drop root before it reads them.
        for file in [tls.path().to_owned(), tls.path().join("server.key")] {
            wm_test_support::mqtt::readable(&file);
        }
        let (certificates, secrets_tls) = (wm_test_support::ports::for_server(), wm_test_support::ports::for_server());
        let (broker, [gateways, service]) = wm_test_support::mqtt::Mosquitto::with_config(|ports, _| {
            shipped_config(ports, [certificates, secrets_tls], auth.path(), tls.path())
        })?;
        let ports = Listeners { gateways, service, certificates, secrets_tls };
        Some(Shipped { broker, ports, auth, mqtt, tls })
    }

    /// Writes `wmeter mosquitto`'s files again and makes Mosquitto read them.
    async fn reload(&self, app: &TestApp) {
        write_files(app, &self.mqtt, self.auth.path()).await;
        self.broker.reload();
    }

    /// The device CA's certificate, as `wmeter broker-certificate` wrote it.
    fn ca(&self) -> PathBuf {
        self.tls.path().join(wmeter::broker_certificate::CA)
    }
}

/// The shipped Mosquitto configuration, on ports of 127.0.0.1, with its
/// files in `auth` and `tls`, without persistence.
fn shipped_config(
    [gateways, service]: [u16; 2],
    [certificates, secrets_tls]: [u16; 2],
    auth: &std::path::Path,
    tls: &std::path::Path,
) -> String {
    let shipped = include_str!("../../../../../deploy/mosquitto/mosquitto.conf");
    let mut config = shipped.to_owned();
    for (from, to) in [
        ("listener 1883 0.0.0.0", format!("listener {gateways} 127.0.0.1")),
        ("listener 1884 0.0.0.0", format!("listener {service} 127.0.0.1")),
        ("listener 8883 0.0.0.0", format!("listener {certificates} 127.0.0.1")),
        ("listener 8884 0.0.0.0", format!("listener {secrets_tls} 127.0.0.1")),
        ("/mosquitto/auth/", format!("{}/", auth.display())),
        ("/mosquitto/tls/", format!("{}/", tls.display())),
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

/// A folder Mosquitto may read, holding `wmeter mosquitto`'s files for
/// w-meter's login `SERVICE_PASSWORD`, and the settings they were written
/// with.
async fn auth_files(app: &TestApp) -> (tempfile::TempDir, wm_telemetry_ingest::MqttSettings) {
    let auth = tempfile::tempdir().unwrap();
    wm_test_support::mqtt::readable(auth.path());
    let mqtt = wm_telemetry_ingest::MqttSettings {
        password: Some(SERVICE_PASSWORD.to_owned()),
        ..wm_telemetry_ingest::MqttSettings::default()
    };
    write_files(app, &mqtt, auth.path()).await;
    (auth, mqtt)
}

/// w-meter's own password in the written files.
const SERVICE_PASSWORD: &str = "service-password";

/// `wmeter mosquitto`'s one pass: the files for the registry as it is now.
async fn write_files(app: &TestApp, mqtt: &wm_telemetry_ingest::MqttSettings, auth: &std::path::Path) {
    let ca = app.device_ca();
    let files = wmeter::mosquitto::render(app.db(), mqtt, auth, Some(&ca), chrono::Utc::now()).await.unwrap();
    wmeter::mosquitto::write(auth, &files).unwrap();
}

#[tokio::test]
async fn mosquitto_enforces_the_files_wmeter_writes() {
    let app = spawn_app().await;
    let Some(mut clients) = Clients::of(&app) else { return };
    let ((a, serial_a), (b, serial_b)) = (register(&app, 1).await, register(&app, 2).await);
    let ((_, secret_a), (_, secret_b)) = (issue_secret(&app, &a).await, issue_secret(&app, &b).await);
    let Some(shipped) = Shipped::start(&app).await else { return };
    let service = Clients { port: shipped.ports.service, ..Clients::of(&app).unwrap() };
    clients.port = shipped.ports.gateways;
    let ingest = ("ingest-1", "wmeter", SERVICE_PASSWORD);
    let (login_a, login_b) = ((&*serial_a, &*serial_a, &*secret_a), (&*serial_b, &*serial_b, &*secret_b));

    // w-meter reads the uplinks; A's own arrive, A's forgery as B does not.
    let uplinks = service.listen(ingest, "wmeter/v1/gw/+/heartbeat").await;
    let own = clients.publish(login_a, &format!("wmeter/v1/gw/{serial_a}/heartbeat"), "own").await;
    assert!(own.status.success(), "{}", said(&own));
    let forged = clients.publish(login_a, &format!("wmeter/v1/gw/{serial_b}/heartbeat"), "forged").await;
    assert!(forged.status.success(), "acknowledged and dropped: {}", said(&forged));
    // The same login over TLS, trusting the device CA that signed the broker.
    let over_tls = Clients { port: shipped.ports.secrets_tls, ca: Some(shipped.ca()), ..Clients::of(&app).unwrap() };
    let encrypted = over_tls.publish(login_a, &format!("wmeter/v1/gw/{serial_a}/heartbeat"), "encrypted").await;
    assert!(encrypted.status.success(), "{}", said(&encrypted));
    let heard = uplinks.stop().await;
    assert!(heard.contains(&format!("wmeter/v1/gw/{serial_a}/heartbeat own")), "{heard}");
    assert!(heard.contains(&format!("wmeter/v1/gw/{serial_a}/heartbeat encrypted")), "{heard}");
    assert!(!heard.contains("forged"), "{heard}");
    let plain = Clients { port: shipped.ports.secrets_tls, ..Clients::of(&app).unwrap() };
    let refused = plain.publish(login_a, &format!("wmeter/v1/gw/{serial_a}/heartbeat"), "plain").await;
    assert!(!refused.status.success(), "8884 speaks TLS only: {}", said(&refused));

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
    shipped.reload(&app).await;
    let ended = tokio::time::timeout(Duration::from_secs(5), open.child.wait_with_output()).await;
    assert!(ended.is_ok(), "the revoked gateway's connection is dropped");
    let refused = clients.publish(login_a, &format!("wmeter/v1/gw/{serial_a}/heartbeat"), "again").await;
    assert!(!refused.status.success(), "{}", said(&refused));
    assert!(clients.publish(login_b, &format!("wmeter/v1/gw/{serial_b}/heartbeat"), "b").await.status.success());
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
    let Some(shipped) = Shipped::start(&app).await else { return };
    assert_eq!(std::fs::read_to_string(shipped.ca()).unwrap(), std::fs::read_to_string(&device_ca).unwrap());
    let service = Clients { port: shipped.ports.service, ..Clients::of(&app).unwrap() };
    let ingest = ("ingest-1", "wmeter", SERVICE_PASSWORD);
    let own = format!("wmeter/v1/gw/{serial}/heartbeat");
    // The gateway trusts the broker through the device CA it got with its
    // certificate.
    let heard_with = async |[certificate, key]: [&std::path::Path; 2], topic: String| {
        let uplinks = service.listen(ingest, "wmeter/v1/gw/+/heartbeat").await;
        let port = shipped.ports.certificates;
        let sent = publish_tls(&clients, port, [&device_ca, certificate, key], "ignored", &topic).await;
        (sent.status.success(), uplinks.stop().await)
    };
    let (sent, heard) = heard_with([&first_cert, &first_key], own.clone()).await;
    assert!(sent && heard.contains(&own), "the certificate w-meter signed is heard: {heard}");
    let (_, heard) = heard_with([&first_cert, &first_key], "wmeter/v1/gw/GW99999999/heartbeat".to_owned()).await;
    assert!(!heard.contains("GW99999999"), "nor as another gateway: {heard}");

    // A rotation revokes the first certificate. Written again and reloaded:
    // it fails the handshake (the revocation list), the connection it had
    // open hears nothing more (the ACL), and the new one is heard.
    let commands = format!("wmeter/v1/gw/{serial}/cmd");
    let port = shipped.ports.certificates;
    let open = listen_tls(&clients, port, [&device_ca, &first_cert, &first_key], &commands, 8).await;
    let [_, second_cert, second_key] = certificate(&app, &id, files.path(), "second").await;
    shipped.reload(&app).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let sent = service.publish(ingest, &commands, "after-revocation").await;
    assert!(sent.status.success(), "{}", said(&sent));
    let (sent, heard) = heard_with([&first_cert, &first_key], own.clone()).await;
    assert!(!sent && !heard.contains(&own), "the revoked certificate is refused: {heard}");
    let (sent, heard) = heard_with([&second_cert, &second_key], own.clone()).await;
    assert!(sent && heard.contains(&own), "the new one is: {heard}");
    let heard = open.stop().await;
    assert!(!heard.contains("after-revocation"), "the open connection hears nothing more: {heard}");

    // A certificate another CA signed fails the handshake.
    let stranger = TestPki::new();
    let files: [&std::path::Path; 3] = [&device_ca, &stranger.cert_file, &stranger.key_file];
    let refused = publish_tls(&clients, shipped.ports.certificates, files, "x", &own).await;
    assert!(!refused.status.success(), "{}", said(&refused));
}

#[tokio::test]
async fn the_shipped_configuration_sends_ingest_two_full_batches_before_an_acknowledgement() {
    let app = spawn_app().await;
    let Some(clients) = Clients::of(&app) else { return };
    let Some(shipped) = Shipped::start(&app).await else { return };
    let service = Clients { port: shipped.ports.service, ..clients };
    let login = wm_mqtt::Login {
        host: "127.0.0.1".into(),
        port: shipped.ports.service,
        client_id: "ingest-1".into(),
        username: "wmeter".into(),
        password: SERVICE_PASSWORD.into(),
    };
    let stop = tokio_util::sync::CancellationToken::new();
    let (link, mut deliveries) = wm_mqtt::Link::subscribe(&login, "wmeter/v1/gw/+/heartbeat".into(), stop.clone());
    let publisher = ("publisher", "wmeter", SERVICE_PASSWORD);
    let receive = async |deliveries: &mut wm_mqtt::Deliveries, within: Duration| {
        tokio::time::timeout(within, deliveries.recv()).await.ok().flatten()
    };
    // Subscribed once a probe comes through.
    let mut subscribed = None;
    for _ in 0..40 {
        assert!(service.publish(publisher, "wmeter/v1/gw/PROBE/heartbeat", "probe").await.status.success());
        subscribed = receive(&mut deliveries, Duration::from_millis(500)).await;
        if subscribed.is_some() {
            break;
        }
    }
    link.ack(subscribed.expect("ingest's link subscribed")).await.unwrap();
    while let Some(late) = receive(&mut deliveries, Duration::from_millis(300)).await {
        link.ack(late).await.unwrap();
    }

    let batch = wm_telemetry_ingest::MqttSettings::default().batch;
    let sent = 2 * batch + 200;
    let mut command = Command::new(&service.publish);
    command.args(service.args(publisher)).args(["-t", "wmeter/v1/gw/GW00000001/heartbeat", "-l"]);
    command.stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::null());
    let mut child = command.spawn().unwrap();
    let lines: String = (0..sent).map(|i| format!("{i}\n")).collect();
    let mut stdin = child.stdin.take().unwrap();
    tokio::io::AsyncWriteExt::write_all(&mut stdin, lines.as_bytes()).await.unwrap();
    drop(stdin);
    assert!(child.wait().await.unwrap().success());

    // Nothing acknowledged: the broker's in-flight window is all it sends.
    let mut held = Vec::new();
    while let Some(delivery) = receive(&mut deliveries, Duration::from_secs(2)).await {
        held.push(delivery);
    }
    assert!(held.len() >= 2 * batch, "only {} in flight: ingest's batches cannot fill", held.len());
    assert!(held.len() < sent, "the window bounds what is sent unacknowledged");
    let mut received = held.len();
    for delivery in held {
        link.ack(delivery).await.unwrap();
    }
    while let Some(delivery) = receive(&mut deliveries, Duration::from_secs(2)).await {
        received += 1;
        link.ack(delivery).await.unwrap();
    }
    assert_eq!(received, sent, "the rest follow the acknowledgements");
    stop.cancel();
}
