//! MQTT over TLS on the embedded broker, with the client certificates
//! w-meter signs.

use super::*;

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
