//! `wmeter broker-certificate`: the MQTT broker's TLS certificate, signed by
//! the device CA, made once and kept while it serves; bad input is named.

use std::os::unix::fs::PermissionsExt;

use crate::{run, wmeter};

/// `wmeter broker-certificate` with the device CA in `dir`: its exit code,
/// standard output and standard error.
fn broker_certificate(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let output = wmeter()
        .arg("broker-certificate")
        .args(args)
        .env("WMETER_DEVICES__CA_CERT_FILE", dir.join("ca/device-ca.crt"))
        .env("WMETER_DEVICES__CA_KEY_FILE", dir.join("ca/device-ca.key"))
        .output()
        .unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.code().unwrap_or(-1), text(&output.stdout), text(&output.stderr))
}

#[test]
fn the_certificate_is_made_with_the_ca_and_kept_while_it_serves() {
    let dir = tempfile::tempdir().unwrap();
    let tls = dir.path().join("tls");
    let tls_arg = tls.to_str().unwrap();
    let (code, said, stderr) = broker_certificate(dir.path(), &["--dir", tls_arg, "--host", "mosquitto"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(said.starts_with("wrote server.crt, server.key and device-ca.crt to "), "{said}");
    let mode = |path: std::path::PathBuf| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!((mode(dir.path().join("ca/device-ca.key")), mode(tls.join("server.key"))), (0o600, 0o600));
    let ca = std::fs::read_to_string(dir.path().join("ca/device-ca.crt")).unwrap();
    assert_eq!(std::fs::read_to_string(tls.join("device-ca.crt")).unwrap(), ca, "the CA beside it is the device CA");
    let certificate = std::fs::read_to_string(tls.join("server.crt")).unwrap();

    let (code, said, stderr) = broker_certificate(dir.path(), &["--dir", tls_arg, "--host", "mosquitto"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(said.starts_with("kept the broker certificate in "), "{said}");
    assert_eq!(std::fs::read_to_string(tls.join("server.crt")).unwrap(), certificate);

    // Another name: a new certificate, from the same CA.
    let args = ["--dir", tls_arg, "--host", "mosquitto", "--host", "mqtt.example.com"];
    let (code, said, stderr) = broker_certificate(dir.path(), &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(said.starts_with("wrote "), "{said}");
    assert_ne!(std::fs::read_to_string(tls.join("server.crt")).unwrap(), certificate);
    assert_eq!(std::fs::read_to_string(dir.path().join("ca/device-ca.crt")).unwrap(), ca);
}

#[test]
fn a_bad_host_or_folder_says_what_is_wrong_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let tls = dir.path().join("tls");
    let tls_arg = tls.to_str().unwrap();
    let (code, _, stderr) = broker_certificate(dir.path(), &["--dir", tls_arg, "--host", "not a host"]);
    assert_ne!(code, 0);
    assert!(stderr.contains("--host: \"not a host\" is neither a DNS name"), "{stderr}");
    assert!(!tls.exists(), "nothing written");
    let (code, stderr) = run(wmeter().args(["broker-certificate", "--dir", tls_arg]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--host <HOST>"), "{stderr}");
    // A folder that cannot be made.
    std::fs::write(dir.path().join("file"), "").unwrap();
    let inside_a_file = dir.path().join("file/tls");
    let (code, _, stderr) =
        broker_certificate(dir.path(), &["--dir", inside_a_file.to_str().unwrap(), "--host", "mosquitto"]);
    assert_ne!(code, 0);
    assert!(stderr.contains("cannot make the folder"), "{stderr}");
}
