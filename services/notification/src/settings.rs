//! The `notifications` settings.

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct NotificationSettings {
    /// Seconds between heartbeat comments on a quiet stream (1 to 300).
    pub heartbeat_secs: u64,
}

impl Default for NotificationSettings {
    fn default() -> Self {
        Self { heartbeat_secs: 15 }
    }
}

impl NotificationSettings {
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        if !(1..=300).contains(&self.heartbeat_secs) {
            let message = format!("{} is out of range; expected 1 to 300 seconds", self.heartbeat_secs);
            return Err(("notifications.heartbeat_secs", message));
        }
        Ok(())
    }
}
