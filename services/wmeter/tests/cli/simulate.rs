//! `wmeter simulate` registers its network through the API and feeds it.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Command, Stdio},
    time::Duration,
};

use crate::{plain_http, serve_with, wait, wmeter};

#[test]
fn simulate_registers_its_network_and_feeds_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}/wm.db", dir.path().display());
    let mut add = wmeter()
        .args(["user", "add", "--username", "ops", "--role", "operator"])
        .env("WMETER_DATABASE__URL", &db)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    add.stdin.take().unwrap().write_all(b"ops-password\n").unwrap();
    assert!(add.wait().unwrap().success());
    let mut server = serve_with(dir.path(), &["serve"], &[("WMETER_MQTT__GATEWAY_PASSWORD", "gw-secret")]);
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let url = lines.next().unwrap().unwrap().strip_prefix("w-meter is running at ").unwrap().to_owned();
    let broker = lines.next().unwrap().unwrap().strip_prefix("MQTT broker at ").unwrap().to_owned();

    let output = wmeter()
        .args(["simulate", "--register", "--api", &url, "--username", "ops", "--broker", &broker])
        .args(["--gateways", "2", "--meters", "6", "--rate", "100", "--duration", "3"])
        .env("WMETER_SIM_PASSWORD", "ops-password")
        .env("WMETER_MQTT__GATEWAY_PASSWORD", "gw-secret")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("registered 8 devices"), "{stdout}");
    let sent: u64 = stdout.split("sent ").nth(1).and_then(|r| r.split(' ').next()).unwrap().parse().unwrap();
    assert!(sent > 100, "{stdout}");

    let body = r#"{"username":"ops","password":"ops-password"}"#;
    let (_, response) = plain_http::post_json(&format!("{url}/api/auth/login"), body);
    let signed_in: serde_json::Value = serde_json::from_str(response.split_once("\r\n\r\n").unwrap().1).unwrap();
    let token = signed_in["accessToken"].as_str().unwrap();
    assert_eq!(plain_http::get_json(&format!("{url}/api/proxy/wmeters/count"), token)["count"], 6);
    let activity = plain_http::get_json(&format!("{url}/api/proxy/gateways/gateway-activity?max=500"), token);
    assert!(activity.as_array().unwrap().len() > 50, "the uplinks were ingested: {activity}");
    Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap();
    wait(&mut server, Duration::from_secs(30)).expect("stops on SIGTERM");
}
