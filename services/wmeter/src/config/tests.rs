use std::io::Write;

use super::*;

fn toml_file(content: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new().suffix(".toml").tempfile().unwrap();
    file.write_all(content.as_bytes()).unwrap();
    file
}

fn load_toml(content: &str, mode: Mode) -> Result<Settings, ConfigError> {
    let file = toml_file(content);
    load(Some(file.path()), mode)
}

fn message(result: Result<Settings, ConfigError>) -> String {
    result.unwrap_err().to_string()
}

#[test]
fn defaults_are_a_valid_embedded_setup() {
    let settings = Settings::default();
    settings.validate(Mode::Embedded).unwrap();
    assert_eq!(settings.http.address(), "127.0.0.1:8080");
    assert_eq!(settings.database.url, "sqlite://data/wmeter.db");
}

#[test]
fn file_overrides_defaults() {
    let settings = load_toml("[http]\nport = 9000\n[database]\nurl = \"sqlite://x/y.db\"\n", Mode::Embedded).unwrap();
    assert_eq!(settings.http.port, 9000);
    assert_eq!(settings.database.url, "sqlite://x/y.db");
    assert_eq!(settings.http.host, "127.0.0.1", "unset keys keep their defaults");
}

#[test]
fn unknown_database_scheme_names_key_and_form() {
    let err = message(load_toml("[database]\nurl = \"mysql://db/wm\"\n", Mode::Embedded));
    assert_eq!(
        err,
        "invalid configuration: database.url: unknown database scheme 'mysql'; \
         expected sqlite://<file> or postgres://<user>@<host>/<db>"
    );
}

#[test]
fn bad_port_names_key_and_form() {
    let err = message(load_toml("[http]\nport = 70000\n", Mode::Embedded));
    assert!(
        err.starts_with("invalid configuration: http.port: 70000 is not a port; expected a number from 0 to 65535"),
        "{err}"
    );
}

#[test]
fn port_of_wrong_type_names_key() {
    let err = message(load_toml("[http]\nport = \"eighty\"\n", Mode::Embedded));
    assert!(err.starts_with("invalid configuration: http.port: 'eighty' is not a port"), "{err}");
}

#[test]
fn distributed_mode_requires_kafka_brokers() {
    let err = message(load_toml("[database]\nurl = \"postgres://wm@db/wm\"\n", Mode::Distributed));
    assert!(err.starts_with("invalid configuration: event_log.brokers: required in distributed mode"), "{err}");
    assert!(err.contains("host:port"), "{err}");
}

#[test]
fn distributed_mode_requires_a_jwt_key() {
    let kafka = "[event_log]\nkind = \"kafka\"\nbrokers = \"k:9092\"\n";
    let err = message(load_toml(kafka, Mode::Distributed));
    assert!(err.starts_with("invalid configuration: auth.jwt_key: required in distributed mode"), "{err}");
    let short = format!("{kafka}[auth]\njwt_key = \"too-short\"\n");
    let err = message(load_toml(&short, Mode::Distributed));
    assert_eq!(err, "invalid configuration: auth.jwt_key: 9 bytes is too short; expected at least 32 random bytes");
    let good = format!("{kafka}[auth]\njwt_key = \"{}\"\n", "k".repeat(32));
    assert!(load_toml(&good, Mode::Distributed).is_ok());
}

#[test]
fn the_jwt_key_never_shows_in_debug_output() {
    let settings = Settings {
        auth: AuthSettings { jwt_key: Some("s3cret-s3cret-s3cret-s3cret-s3cret".into()), ..AuthSettings::default() },
        ..Settings::default()
    };
    assert!(!format!("{settings:?}").contains("s3cret"));
}

#[test]
fn kafka_kind_without_brokers_is_rejected() {
    let err = message(load_toml("[event_log]\nkind = \"kafka\"\n", Mode::Distributed));
    assert!(err.starts_with("invalid configuration: event_log.brokers: required with event_log.kind"), "{err}");
}

#[test]
fn kafka_settings_come_from_the_file() {
    let settings = load_toml("[event_log]\nkind = \"kafka\"\nbrokers = \"k1:9092,k2:9092\"\n", Mode::Embedded).unwrap();
    assert_eq!(settings.kafka().map(|k| k.brokers.as_str()), Some("k1:9092,k2:9092"));
}

#[test]
fn malformed_broker_list_is_rejected() {
    let err = message(load_toml("[event_log]\nkind = \"kafka\"\nbrokers = \"kafka\"\n", Mode::Distributed));
    assert!(err.starts_with("invalid configuration: event_log.brokers: 'kafka' is not a broker list"), "{err}");
}

#[test]
fn embedded_log_needs_sqlite() {
    let err = message(load_toml("[database]\nurl = \"postgres://wm@db/wm\"\n", Mode::Embedded));
    assert!(err.starts_with("invalid configuration: event_log.kind: the embedded event log lives in"), "{err}");
}

#[test]
fn unknown_key_is_rejected_by_name() {
    let err = message(load_toml("[http]\nprot = 80\n", Mode::Embedded));
    assert!(err.contains("prot"), "{err}");
}

#[test]
fn missing_file_is_reported() {
    let err = message(load(Some(std::path::Path::new("/nonexistent/wmeter.toml")), Mode::Embedded));
    assert_eq!(err, "cannot read the configuration file /nonexistent/wmeter.toml: no such file");
}

#[test]
fn malformed_toml_is_reported_not_panicked() {
    let err = message(load_toml("[http\nport = 1", Mode::Embedded));
    assert!(err.starts_with("invalid configuration: "), "{err}");
}

#[test]
fn env_sections_are_the_settings_sections() {
    let value = toml::Value::try_from(Settings::default()).unwrap();
    let mut keys: Vec<_> = value.as_table().unwrap().keys().cloned().collect();
    let mut sections: Vec<_> = SECTIONS.iter().map(|s| (*s).to_owned()).collect();
    keys.sort();
    sections.sort();
    assert_eq!(keys, sections);
}

#[test]
fn device_windows_are_checked() {
    let settings = load_toml("[devices]\nmeter_lost_after_secs = 3600\n", Mode::Embedded).unwrap();
    assert_eq!(settings.devices.meter_lost_after_secs, 3600);
    let err = message(load_toml("[devices]\ngateway_lost_after_secs = 0\n", Mode::Embedded));
    assert!(err.starts_with("invalid configuration: devices.gateway_lost_after_secs: 0 is out of range"), "{err}");
}

#[test]
fn map_tiles_are_a_url_template_or_nothing() {
    let settings = load_toml("[web]\nmap_tiles_url = \"\"\n", Mode::Embedded).unwrap();
    assert_eq!(settings.web.dashboard().map_tiles_url, "");
    let err = message(load_toml("[web]\nmap_tiles_url = \"tiles.example/{z}/{x}\"\n", Mode::Embedded));
    assert!(err.starts_with("invalid configuration: web.map_tiles_url: "), "{err}");
    assert!(Settings::default().web.map_tiles_url.contains("openstreetmap"));
}
