//! Debian's Mosquitto with the configuration w-meter ships and the files
//! `wmeter mosquitto` writes: secrets on the gateway listener, and client
//! certificates on the documented TLS listener.

use super::*;

/// The shipped Mosquitto configuration, on two free ports of 127.0.0.1,
/// with its files in `auth`, without persistence.
fn shipped_config([gateways, service]: [u16; 2], auth: &std::path::Path) -> String {
    let shipped = include_str!("../../../../../deploy/compose/mosquitto/mosquitto.conf");
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
    let files = wmeter::mosquitto::render(app.db(), mqtt, auth, chrono::Utc::now()).await.unwrap();
    wmeter::mosquitto::write(auth, &files).unwrap();
}

#[tokio::test]
async fn mosquitto_enforces_the_files_wmeter_writes() {
    let app = spawn_app().await;
    let Some(mut clients) = Clients::of(&app) else { return };
    let ((a, serial_a), (b, serial_b)) = (register(&app, 1).await, register(&app, 2).await);
    let ((_, secret_a), (_, secret_b)) = (issue_secret(&app, &a).await, issue_secret(&app, &b).await);
    let (auth, mqtt) = auth_files(&app).await;
    let Some((broker, [gateway_port, service_port])) =
        wm_test_support::mqtt::Mosquitto::with_config(|ports, _| shipped_config(ports, auth.path()))
    else {
        return;
    };
    let service = Clients { port: service_port, ..Clients::of(&app).unwrap() };
    clients.port = gateway_port;
    let ingest = ("ingest-1", "wmeter", SERVICE_PASSWORD);
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
    let (auth, mqtt) = auth_files(&app).await;
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
    let ingest = ("ingest-1", "wmeter", SERVICE_PASSWORD);
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
