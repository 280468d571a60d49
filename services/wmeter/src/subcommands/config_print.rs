use wm_eventlog::EventLogSettings;

use crate::config::Settings;

/// Prints the effective configuration as TOML, with the database password,
/// the JWT key, the MQTT, SMTP and Kafka SASL passwords and every extra
/// Kafka option value replaced, so the output can be pasted into an issue.
pub fn run(settings: &Settings) -> anyhow::Result<()> {
    let mut shown = settings.clone();
    shown.database.url = wm_storage::redact(&shown.database.url);
    if let Some(key) = &mut shown.auth.jwt_key {
        "***".clone_into(key);
    }
    let smtp = shown.notifications.smtp.as_mut().and_then(|smtp| smtp.password.as_mut());
    for password in [shown.mqtt.password.as_mut(), shown.mqtt.gateway_password.as_mut(), smtp].into_iter().flatten() {
        "***".clone_into(password);
    }
    if let EventLogSettings::Kafka(kafka) = &mut shown.event_log {
        kafka.options.values_mut().for_each(|value| *value = "***".to_owned());
        if let Some(password) = &mut kafka.security.sasl_password {
            "***".clone_into(password);
        }
    }
    print!("{}", toml::to_string_pretty(&shown)?);
    Ok(())
}
