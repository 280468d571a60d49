//! `wmeter mosquitto`: Mosquitto's files written from the registry, and a
//! reload asked of the process its pid file names.

use std::process::{Command, Stdio};

use crate::{run, wmeter};

#[test]
fn the_files_are_written_and_mosquitto_is_signalled_when_they_change() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}/wm.db", dir.path().display());
    let (code, stderr) = run(wmeter().arg("migrate").env("WMETER_DATABASE__URL", &db));
    assert_eq!(code, 0, "{stderr}");
    // A process that counts the SIGHUPs it gets, standing in for Mosquitto.
    let mut mosquitto = Command::new("sh")
        .args(["-c", "n=0; trap 'n=$((n+1)); echo hup $n' HUP; while :; do sleep 0.05; done"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let pid_file = dir.path().join("mosquitto.pid");
    std::fs::write(&pid_file, format!("{}\n", mosquitto.id())).unwrap();
    let auth = dir.path().join("auth");
    let write = || {
        let output = wmeter()
            .args(["mosquitto", "--dir", auth.to_str().unwrap(), "--pid-file", pid_file.to_str().unwrap()])
            .env("WMETER_DATABASE__URL", &db)
            .env("WMETER_MQTT__PASSWORD", "service-password")
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let first = write();
    assert!(first.contains("wrote Mosquitto's files") && first.contains("reloads them"), "{first}");
    for file in ["gateways.passwords", "gateways.acl", "service.passwords", "service.acl"] {
        assert!(auth.join(file).is_file(), "{file}");
    }
    let acl = std::fs::read_to_string(auth.join("gateways.acl")).unwrap();
    assert!(
        acl.contains("pattern write wmeter/v1/gw/%u/reading\n") && acl.contains("pattern read wmeter/v1/gw/%u/cmd\n")
    );
    assert!(!acl.contains("%u/cmd\npattern write") && !acl.contains("write wmeter/v1/gw/%u/cmd"), "{acl}");
    let service = std::fs::read_to_string(auth.join("service.passwords")).unwrap();
    assert!(service.starts_with("wmeter:$7$101$") && !service.contains("service-password"), "{service}");
    assert_eq!(write(), "", "nothing changed: nothing written, no reload");
    std::thread::sleep(std::time::Duration::from_millis(200));
    let _ = mosquitto.kill();
    let heard = String::from_utf8_lossy(&mosquitto.wait_with_output().unwrap().stdout).into_owned();
    assert_eq!(heard.lines().collect::<Vec<_>>(), ["hup 1"], "one reload");
}

#[test]
fn a_bad_pid_file_database_or_password_says_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}/wm.db", dir.path().display());
    let auth = dir.path().join("auth");
    let mosquitto = |args: &[&str]| {
        let mut command = wmeter();
        command.args(["mosquitto", "--dir", auth.to_str().unwrap()]).args(args).env("WMETER_DATABASE__URL", &db);
        command
    };
    let (code, stderr) = run(&mut mosquitto(&[]));
    assert_ne!(code, 0);
    assert!(stderr.contains("mqtt.password: required"), "no empty password for w-meter's login: {stderr}");
    let (code, stderr) = run(mosquitto(&[]).env("WMETER_MQTT__PASSWORD", "service-password"));
    assert_ne!(code, 0);
    assert!(stderr.contains("is the registry's database migrated?"), "{stderr}");
    assert!(run(wmeter().arg("migrate").env("WMETER_DATABASE__URL", &db)).0 == 0);

    let missing = dir.path().join("not-started.pid");
    let args = ["--pid-file", missing.to_str().unwrap()];
    let (code, stderr) = run(mosquitto(&args).env("WMETER_MQTT__PASSWORD", "service-password"));
    assert_eq!(code, 0, "Mosquitto not started yet reads the files when it starts: {stderr}");

    let pid_file = dir.path().join("pid");
    std::fs::write(&pid_file, "not a pid").unwrap();
    std::fs::remove_dir_all(&auth).unwrap();
    let args = ["--pid-file", pid_file.to_str().unwrap()];
    let (code, stderr) = run(mosquitto(&args).env("WMETER_MQTT__PASSWORD", "service-password"));
    assert_ne!(code, 0);
    assert!(stderr.contains("\"not a pid\" is not a process id"), "{stderr}");
    assert!(stderr.contains("Mosquitto did not reload its files"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn the_revocation_list_is_signed_with_the_device_ca_and_kept_while_it_says_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}/wm.db", dir.path().display());
    assert_eq!(run(wmeter().arg("migrate").env("WMETER_DATABASE__URL", &db)).0, 0);
    let auth = dir.path().join("auth");
    let ca = [
        ("WMETER_DEVICES__CA_CERT_FILE", dir.path().join("ca.crt")),
        ("WMETER_DEVICES__CA_KEY_FILE", dir.path().join("ca.key")),
    ];
    let write = || {
        let output = wmeter()
            .args(["mosquitto", "--dir", auth.to_str().unwrap()])
            .env("WMETER_DATABASE__URL", &db)
            .env("WMETER_MQTT__PASSWORD", "service-password")
            .envs(ca.clone())
            .output()
            .unwrap();
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        assert!(output.status.success(), "{}", text(&output.stderr));
        (text(&output.stdout), text(&output.stderr))
    };
    // No CA yet: no list, and a warning that says why.
    let (_, stderr) = write();
    assert!(stderr.contains("no device CA: certificates.crl is not written"), "{stderr}");
    assert!(!auth.join("certificates.crl").exists());
    // `wmeter broker-certificate` makes the CA: the next pass signs the list.
    let tls = dir.path().join("tls");
    let made = wmeter()
        .args(["broker-certificate", "--dir", tls.to_str().unwrap(), "--host", "localhost"])
        .envs(ca.clone())
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let (said, _) = write();
    assert!(said.contains("wrote Mosquitto's files"), "{said}");
    let list = std::fs::read_to_string(auth.join("certificates.crl")).unwrap();
    assert!(list.starts_with("-----BEGIN X509 CRL-----"), "{list}");
    assert_eq!(write().0, "", "the same list: nothing written");
    assert_eq!(std::fs::read_to_string(auth.join("certificates.crl")).unwrap(), list);
}
