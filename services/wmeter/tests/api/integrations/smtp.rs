//! Email rules against a real SMTP server (aiosmtpd, through
//! deploy/dev/smtp-sink.py) that requires STARTTLS, with a certificate of a
//! CA made for the test and given to w-meter as `notifications.smtp.ca_file`.

use std::{
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
};

use serde_json::json;
use wm_proto::v1::AlarmSeverity;
use wmeter::config::Settings;

use super::{METER, create_rule, delivery_when, raise};
use crate::helpers::spawn_each;

/// The SMTP server and its files; stopped when dropped.
struct Sink {
    port: u16,
    dir: tempfile::TempDir,
    child: Child,
}

impl Drop for Sink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn openssl(dir: &Path, args: &[&str]) {
    let output = Command::new("openssl").args(args).current_dir(dir).output().expect("run openssl");
    assert!(output.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&output.stderr));
}

/// A CA, and a certificate of 127.0.0.1 it signed, in `dir`.
fn certificates(dir: &Path) {
    openssl(
        dir,
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "2",
            "-subj",
            "/CN=w-meter test CA",
        ],
    );
    openssl(
        dir,
        &["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "leaf.csr", "-subj", "/CN=127.0.0.1"],
    );
    std::fs::write(
        dir.join("leaf.ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "leaf.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "cert.pem",
            "-days",
            "2",
            "-extfile",
            "leaf.ext",
        ],
    );
}

impl Sink {
    fn start() -> Option<Sink> {
        let python = wm_test_support::servers::smtp_python()?;
        let dir = tempfile::tempdir().unwrap();
        certificates(dir.path());
        std::fs::create_dir(dir.path().join("mail")).unwrap();
        let port = wm_test_support::ports::for_server();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/dev/smtp-sink.py");
        let mut child = Command::new(python)
            .arg(script)
            .arg(port.to_string())
            .args(["cert.pem", "key.pem", "mail"])
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("run the SMTP sink");
        let mut ready = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.as_mut().unwrap()), &mut ready).unwrap();
        assert_eq!(ready.trim(), "ready", "the SMTP sink did not start");
        Some(Sink { port, dir, child })
    }

    fn ca(&self) -> PathBuf {
        self.dir.path().join("ca.pem")
    }

    /// Message `n` as a mail client shows it: quoted-printable soft line
    /// breaks joined.
    fn mail(&self, n: usize) -> Option<String> {
        let raw = std::fs::read_to_string(self.dir.path().join("mail").join(format!("{n}.eml"))).ok()?;
        Some(raw.replace("=\r\n", "").replace("=\n", "").replace("=3D", "="))
    }
}

#[tokio::test]
async fn an_email_rule_sends_through_a_real_smtp_server_over_starttls() {
    let Some(sink) = Sink::start() else { return };
    let (port, ca) = (sink.port, sink.ca());
    let adjust = move |s: &mut Settings| {
        super::quick(3600, 5)(s);
        s.notifications.smtp = Some(wm_notification::SmtpSettings {
            host: "127.0.0.1".to_owned(),
            port,
            security: wm_notification::SmtpSecurity::Starttls,
            from: "w-meter <alarms@example.org>".to_owned(),
            username: None,
            password: None,
            ca_file: Some(ca.clone()),
        });
    };
    let mut sent = 0;
    for app in spawn_each(adjust).await {
        let rule = create_rule(
            &app,
            json!({"name": "Night desk", "enabled": true,
            "match": {"types": ["leak"], "severities": ["critical"], "devices": {"scope": "all"}},
            "channel": {"kind": "email", "to": ["night-desk@example.org", "duty@example.org"]}, "groupWindowSecs": 0}),
        )
        .await;
        raise(&app, &format!("mail-{sent}"), METER, "leak", AlarmSeverity::Critical).await;
        let done = delivery_when(&app, &rule, "the email", |d| d["status"] != "pending").await;
        assert_eq!(done["status"], "delivered", "{done}");
        assert_eq!(done["attempts"][0]["statusCode"], 250);
        sent += 1;
        let mail = sink.mail(sent).expect("the message reached the SMTP server");
        assert!(mail.contains("X-Sink-TLS: yes"), "sent over STARTTLS:\n{mail}");
        assert!(mail.contains("X-Sink-To: night-desk@example.org,duty@example.org"), "{mail}");
        assert!(mail.contains("From: w-meter <alarms@example.org>"), "{mail}");
        assert!(mail.contains(&format!("Subject: [w-meter] leak alarm (critical): {METER}")), "{mail}");
        assert!(mail.contains(&format!("- leak (critical) on meter {METER} ({METER}), raised")), "{mail}");
        assert!(mail.contains("The w-meter alarm rule \"Night desk\" matched"), "{mail}");
    }
}
