use wm_eventlog::EventLogSettings;

use crate::config::Settings;

/// Prints the effective configuration as TOML, with the database password,
/// the JWT key, the MQTT passwords and every extra Kafka option value
/// replaced, so the output can be pasted into an issue.
pub fn run(settings: &Settings) -> anyhow::Result<()> {
    let mut shown = settings.clone();
    shown.database.url = wm_storage::redact(&shown.database.url);
    if let Some(key) = &mut shown.auth.jwt_key {
        "***".clone_into(key);
    }
    for password in [&mut shown.mqtt.password, &mut shown.mqtt.gateway_password].into_iter().flatten() {
        "***".clone_into(password);
    }
    if let EventLogSettings::Kafka(kafka) = &mut shown.event_log {
        kafka.options.values_mut().for_each(|value| *value = "***".to_owned());
    }
    print!("{}", toml::to_string_pretty(&shown)?);
    Ok(())
}
