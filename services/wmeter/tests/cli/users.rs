//! `wmeter user add|list|disable`.

use std::process::Stdio;

use crate::wmeter;

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
    assert_eq!((code, out.as_str()), (0, "disabled alice; every session revoked\n"));
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
