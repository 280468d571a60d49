//! `wmeter simulate` registers its network through the API and feeds it;
//! its scenarios make meters leak, burst and stick, which the leak
//! detectors find.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Command, Stdio},
    time::Duration,
};

use crate::{Running, plain_http, serve_with, wait, wmeter};

/// A served w-meter with the operator `ops`: its URL, its broker, and the
/// server to stop.
fn served(dir: &std::path::Path) -> (String, String, Running) {
    let db = format!("sqlite://{}/wm.db", dir.display());
    let mut add = wmeter()
        .args(["user", "add", "--username", "ops", "--role", "operator"])
        .env("WMETER_DATABASE__URL", &db)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    add.stdin.take().unwrap().write_all(b"ops-password\n").unwrap();
    assert!(add.wait().unwrap().success());
    let mut server = serve_with(dir, &["serve"], &[("WMETER_MQTT__GATEWAY_PASSWORD", "gw-secret")]);
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let url = lines.next().unwrap().unwrap().strip_prefix("w-meter is running at ").unwrap().to_owned();
    let broker = lines.next().unwrap().unwrap().strip_prefix("MQTT broker at ").unwrap().to_owned();
    (url, broker, server)
}

/// Runs `wmeter simulate --register` against it with `args`; its output.
fn simulate(url: &str, broker: &str, args: &[&str]) -> String {
    let output = wmeter()
        .args(["simulate", "--register", "--api", url, "--username", "ops", "--broker", broker])
        .args(args)
        .env("WMETER_SIM_PASSWORD", "ops-password")
        .env("WMETER_MQTT__GATEWAY_PASSWORD", "gw-secret")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    stdout
}

fn token(url: &str) -> String {
    plain_http::sign_in(url, "ops", "ops-password")
}

#[test]
fn simulate_registers_its_network_and_feeds_it() {
    let dir = tempfile::tempdir().unwrap();
    let (url, broker, mut server) = served(dir.path());
    let stdout = simulate(&url, &broker, &["--gateways", "2", "--meters", "6", "--rate", "100", "--duration", "3"]);
    assert!(stdout.contains("registered 8 devices"), "{stdout}");
    let sent: u64 = stdout.split("sent ").nth(1).and_then(|r| r.split(' ').next()).unwrap().parse().unwrap();
    assert!(sent > 100, "{stdout}");

    let token = token(&url);
    assert_eq!(plain_http::get_json(&format!("{url}/api/proxy/wmeters/count"), &token)["count"], 6);
    let activity = plain_http::get_json(&format!("{url}/api/proxy/gateways/gateway-activity?max=500"), &token);
    assert!(activity.as_array().unwrap().len() > 50, "the uplinks were ingested: {activity}");
    Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap();
    wait(&mut server, Duration::from_secs(30)).expect("stops on SIGTERM");
}

#[test]
fn simulated_leaks_bursts_and_stuck_meters_raise_their_alarms() {
    let dir = tempfile::tempdir().unwrap();
    let (url, broker, mut server) = served(dir.path());
    let args = ["--gateways", "1", "--meters", "4", "--rate", "20", "--duration", "5", "--seed", "9"];
    let stdout = simulate(&url, &broker, &[&args[..], &["--scenario", "leak,burst", "--scenario", "stuck"]].concat());
    assert!(stdout.contains("scenario Leak on meter SM09000000"), "{stdout}");
    assert!(stdout.contains("scenario Stuck on meter SM09000002"), "{stdout}");

    let token = token(&url);
    let expected = [("W-SM09000000", "continuous-flow"), ("W-SM09000001", "burst"), ("W-SM09000002", "stuck-meter")];
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let raised = loop {
        let page =
            plain_http::get_json(&format!("{url}/api/alarms?type=continuous-flow,burst,stuck-meter&max=50"), &token);
        let raised: Vec<(String, String)> = page["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| (a["deviceName"].as_str().unwrap().to_owned(), a["type"].as_str().unwrap().to_owned()))
            .collect();
        if expected.iter().all(|(m, t)| raised.contains(&((*m).to_owned(), (*t).to_owned())))
            || std::time::Instant::now() > deadline
        {
            break raised;
        }
        std::thread::sleep(Duration::from_millis(250));
    };
    for (meter, alarm_type) in expected {
        assert!(raised.contains(&(meter.to_owned(), alarm_type.to_owned())), "{meter} {alarm_type}: {raised:?}");
    }
    assert!(!raised.iter().any(|(m, _)| m == "W-SM09000003"), "a household's meter raises nothing: {raised:?}");
    Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap();
    wait(&mut server, Duration::from_secs(30)).expect("stops on SIGTERM");
}
