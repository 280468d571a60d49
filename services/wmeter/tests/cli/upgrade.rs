//! The previous release on a database this release migrated and wrote to:
//! while a rolling update runs, the old pods serve the new schema
//! (expand/contract, docs/operations.md "Upgrades"). `make test-upgrade`
//! builds the previous commit's `wmeter` once (cached in `.cache/previous`)
//! and names it in `WM_PREVIOUS_WMETER`; without it this test has nothing
//! to run and says so.

use std::{
    io::{BufRead, BufReader},
    process::{Command, Stdio},
    time::Duration,
};

use crate::{Running, add_user, on_folder, plain_http, serve_command, wait, wmeter, wmeter_at};

/// Serves `dir` with `command` (a `wmeter serve`) and runs `check` on its URL.
fn serving(mut command: Command, check: impl FnOnce(&str)) {
    let mut child = Running::spawn(command.stdout(Stdio::piped()).stderr(Stdio::null()));
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let banner = stdout.next().unwrap().unwrap();
    let url = banner.strip_prefix("w-meter is running at ").expect(&banner).to_owned();
    check(&url);
    Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    wait(&mut child, Duration::from_secs(30)).expect("stops on SIGTERM");
}

fn register_meter(url: &str, token: &str, serial: &str, ble: &str) {
    let body = serde_json::json!({"serialNumber": serial, "bleAddress": ble}).to_string();
    let headers = [("Authorization", format!("Bearer {token}")), ("Content-Type", "application/json".to_owned())];
    let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (status, response) = plain_http::send("POST", &format!("{url}/api/proxy/wmeters/"), &headers, &body);
    assert_eq!(status, 201, "{response}");
}

#[test]
fn the_previous_release_serves_a_database_this_release_migrated() {
    let Some(previous) = std::env::var_os("WM_PREVIOUS_WMETER") else {
        eprintln!("not run: WM_PREVIOUS_WMETER names no previous release (make test-upgrade builds one)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let output = wmeter()
        .args(["seed", "--gateways", "2", "--meters", "10", "--readings", "40"])
        .env("WMETER_DATABASE__URL", format!("sqlite://{}/wm.db", dir.path().display()))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    add_user(dir.path(), "ann", "operator", "a-long-password");

    // The previous release reads what this one wrote, and writes.
    serving(on_folder(wmeter_at(previous.as_ref()), dir.path(), &["serve"], &[]), |url| {
        let token = plain_http::sign_in(url, "ann", "a-long-password");
        let get = |path: &str| plain_http::get_json(&format!("{url}/api/proxy/{path}"), &token);
        assert_eq!(get("gateways/count")["count"], 2);
        assert_eq!(get("wmeters/count")["count"], 10);
        assert!(get("wmeters/serial/SM00000003")["totalConsumption"].as_f64() > Some(0.0));
        register_meter(url, &token, "UP00000001", "D0:00:00:00:00:01");
    });

    // This release reads what the previous one wrote.
    serving(serve_command(dir.path(), &["serve"], &[]), |url| {
        let token = plain_http::sign_in(url, "ann", "a-long-password");
        let meter = plain_http::get_json(&format!("{url}/api/proxy/wmeters/serial/UP00000001"), &token);
        assert_eq!(meter["bleAddress"], "D0:00:00:00:00:01", "{meter}");
    });
}
