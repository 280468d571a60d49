//! Configuration errors name the key; `config print` hides secrets.

use crate::{run, wmeter};

#[test]
fn unknown_database_scheme_exits_2_naming_the_key() {
    let (code, stderr) = run(wmeter().args(["config", "print"]).env("WMETER_DATABASE__URL", "mysql://db/wm"));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("database.url: unknown database scheme 'mysql'; expected sqlite://<file> or postgres://"),
        "{stderr}"
    );
}

#[test]
fn bad_port_exits_2_naming_the_key_and_source() {
    let (code, stderr) = run(wmeter().args(["serve"]).env("WMETER_HTTP__PORT", "70000"));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("http.port: 70000 is not a port; expected a number from 0 to 65535"), "{stderr}");
    assert!(stderr.contains("WMETER_"), "names where the value came from: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn distributed_mode_without_brokers_exits_2() {
    let (code, stderr) = run(wmeter().args(["run", "device-registry"]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("event_log.brokers: required in distributed mode"), "{stderr}");
}

#[test]
fn unknown_service_is_a_usage_error() {
    let (code, stderr) = run(wmeter().args(["run", "billing"]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("invalid value 'billing'"), "{stderr}");
}

#[test]
fn unrelated_wmeter_variables_are_not_settings() {
    let mut file = tempfile::Builder::new().suffix(".toml").tempfile().unwrap();
    std::io::Write::write_all(&mut file, b"[http]\nport = 9191\n").unwrap();
    let output = wmeter()
        .args(["config", "print"])
        .env("WMETER_CONFIG", file.path())
        // What Kubernetes injects for a Service named wmeter-gateway.
        .env("WMETER_GATEWAY_PORT", "tcp://10.0.0.7:8080")
        .env("WMETER_GATEWAY_SERVICE_HOST", "10.0.0.7")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("port = 9191"), "WMETER_CONFIG names the file: {stdout}");
}

#[test]
fn config_print_shows_effective_values_with_password_redacted() {
    let mut file = tempfile::Builder::new().suffix(".toml").tempfile().unwrap();
    let toml = "[event_log]\nkind = \"kafka\"\nbrokers = \"kafka:9092\"\n\
                [event_log.options]\n\"sasl.password\" = \"kafka-secret\"\n\
                [notifications.smtp]\nhost = \"smtp.example.org\"\nfrom = \"w-meter <alarms@example.org>\"\n\
                username = \"alarms\"\npassword = \"smtp-secret\"\n";
    std::io::Write::write_all(&mut file, toml.as_bytes()).unwrap();
    let output = wmeter()
        .args(["--config", file.path().to_str().unwrap(), "config", "print", "--mode", "distributed"])
        .env("WMETER_DATABASE__URL", "postgres://wm:p@ss@db:5432/wm?password=hunter2")
        .env("WMETER_AUTH__JWT_KEY", "jwt-key-jwt-key-jwt-key-jwt-key-0")
        .env("WMETER_HTTP__PORT", "9090")
        .env("WMETER_MQTT__PASSWORD", "mqtt-secret")
        .env("WMETER_MQTT__GATEWAY_PASSWORD", "gateway-secret")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("port = 9090"), "{stdout}");
    assert!(stdout.contains("postgres://wm:***@db:5432/wm?password=***"), "{stdout}");
    assert!(!stdout.contains("hunter2") && !stdout.contains("p@ss"), "{stdout}");
    assert!(stdout.contains("jwt_key = \"***\"") && !stdout.contains("jwt-key-"), "{stdout}");
    assert!(stdout.contains("\"sasl.password\" = \"***\""), "{stdout}");
    assert!(!stdout.contains("kafka-secret"), "{stdout}");
    assert!(!stdout.contains("mqtt-secret") && !stdout.contains("gateway-secret"), "{stdout}");
    assert!(stdout.contains("gateway_password = \"***\""), "{stdout}");
    assert!(!stdout.contains("smtp-secret") && stdout.contains("host = \"smtp.example.org\""), "{stdout}");
}
