use crate::config::Settings;

/// Prints the effective configuration as TOML. The database password is
/// replaced, so the output can be pasted into an issue.
pub fn run(settings: &Settings) -> anyhow::Result<()> {
    let mut shown = settings.clone();
    shown.database.url = wm_storage::redact(&shown.database.url);
    print!("{}", toml::to_string_pretty(&shown)?);
    Ok(())
}
