//! `wmeter serve --demo`: users shown once, a network registered once, a live simulator.

use std::{
    io::{BufRead, BufReader},
    process::Command,
    time::Duration,
};

use crate::{plain_http, serve, wait};

#[test]
fn the_demo_creates_users_once_and_their_password_signs_in() {
    let dir = tempfile::tempdir().unwrap();
    let start = || {
        let mut child = serve(dir.path(), &["serve", "--demo"]);
        // The banner ends with the line about the demo simulator.
        let mut banner = Vec::new();
        for line in BufReader::new(child.stdout.take().unwrap()).lines().map_while(Result::ok) {
            let last = line.starts_with("demo simulator");
            banner.push(line);
            if last {
                break;
            }
        }
        (child, banner)
    };
    let (mut child, banner) = start();
    let url = banner[0].strip_prefix("w-meter is running at ").expect(&banner[0]).to_owned();
    let admin = banner.iter().find_map(|l| l.strip_prefix("demo login: admin / ")).expect("the admin password");
    let password = admin.split_whitespace().next().unwrap();
    assert!(banner.iter().any(|l| l.starts_with("demo login: viewer / ")), "{banner:?}");
    let body = format!(r#"{{"username":"admin","password":"{password}"}}"#);
    let (status, response) = plain_http::post_json(&format!("{url}/api/auth/login"), &body);
    assert_eq!(status, 200, "{response}");
    assert!(response.contains(r#""role":"admin""#), "{response}");
    assert!(response.contains("Set-Cookie: wmeter_rt=") || response.contains("set-cookie: wmeter_rt="), "{response}");
    assert!(banner.iter().any(|l| l == "demo network: registered 8 gateways and 60 water meters"), "{banner:?}");
    let signed_in: serde_json::Value = serde_json::from_str(response.split_once("\r\n\r\n").unwrap().1).unwrap();
    let token = signed_in["accessToken"].as_str().unwrap();
    assert_eq!(plain_http::get_json(&format!("{url}/api/proxy/wmeters/count"), token)["count"], 60);
    let alive = (0..300).any(|_| {
        std::thread::sleep(Duration::from_millis(100));
        let activity = plain_http::get_json(&format!("{url}/api/proxy/gateways/gateway-activity?max=5"), token);
        activity.as_array().is_some_and(|a| !a.is_empty())
    });
    assert!(alive, "the simulator feeds the demo network within 30 s");
    Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    wait(&mut child, Duration::from_secs(30)).expect("stops on SIGTERM");

    let (mut again, banner) = start();
    assert!(banner.iter().all(|l| !l.starts_with("demo login:")), "passwords are shown once: {banner:?}");
    assert!(banner.iter().all(|l| !l.starts_with("demo network:")), "registered once: {banner:?}");
    Command::new("kill").args(["-TERM", &again.id().to_string()]).status().unwrap();
    wait(&mut again, Duration::from_secs(30)).expect("stops on SIGTERM");
}
