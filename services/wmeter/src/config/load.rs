use std::path::Path;

use figment::{
    Figment,
    providers::{Env, Format, Serialized, Toml},
};

use super::{ConfigError, Mode, Settings};

/// Environment variables starting with this override the file.
pub const ENV_PREFIX: &str = "WMETER_";

/// The sections of [`Settings`]. Only `WMETER_<SECTION>__<KEY>` variables are
/// configuration: others that share the prefix (`WMETER_CONFIG`, or the
/// `WMETER_GATEWAY_PORT` service links Kubernetes puts in every pod) are not.
pub const SECTIONS: &[&str] = &[
    "http",
    "database",
    "event_log",
    "log",
    "web",
    "auth",
    "devices",
    "mqtt",
    "telemetry",
    "alarms",
    "analytics",
    "notifications",
    "gateway",
];

/// Loads defaults, then `file` (when given), then `WMETER_*` variables, and
/// validates the result for `mode`.
pub fn load(file: Option<&Path>, mode: Mode) -> Result<Settings, ConfigError> {
    let mut figment = Figment::from(Serialized::defaults(Settings::default()));
    if let Some(path) = file {
        if !path.is_file() {
            return Err(ConfigError::File { path: path.display().to_string(), message: "no such file".to_owned() });
        }
        figment = figment.merge(Toml::file_exact(path));
    }
    let settings: Settings = figment
        .merge(Env::prefixed(ENV_PREFIX).filter(|key| is_setting(key.as_str())).split("__"))
        .extract()
        .map_err(describe)?;
    settings.validate(mode)?;
    Ok(settings)
}

fn is_setting(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    SECTIONS.iter().any(|section| key.strip_prefix(section).is_some_and(|rest| rest.starts_with("__")))
}

/// Turns figment's error into one that names the key (`http.port`), where
/// the value came from, and what was expected.
fn describe(error: figment::Error) -> ConfigError {
    let key = error.path.join(".");
    let source = error
        .metadata
        .as_ref()
        .map(|m| match &m.source {
            Some(source) => format!(" (from {} {source})", m.name),
            None => format!(" (from {})", m.name),
        })
        .unwrap_or_default();
    let message = format!("{}{source}", error.kind);
    if key.is_empty() { ConfigError::invalid("config", message) } else { ConfigError::invalid(key, message) }
}
