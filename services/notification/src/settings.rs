//! The `notifications` settings: the stream's heartbeat, how alarm rules'
//! deliveries are retried, and the SMTP server that sends their emails.

use std::{path::PathBuf, time::Duration};

use crate::domain::delivery::Backoff;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct NotificationSettings {
    /// Seconds between heartbeat comments on a quiet stream (1 to 300).
    pub heartbeat_secs: u64,
    pub deliveries: DeliverySettings,
    /// Where rules' emails go out; without it, email rules' deliveries
    /// fail with that reason (webhooks still work).
    pub smtp: Option<SmtpSettings>,
}

impl Default for NotificationSettings {
    fn default() -> Self {
        Self { heartbeat_secs: 15, deliveries: DeliverySettings::default(), smtp: None }
    }
}

/// How deliveries are tried (docs/integrations.md).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct DeliverySettings {
    /// The first retry's delay, doubled at each next one (1 to 3600).
    pub retry_first_secs: u64,
    /// The longest delay between two attempts (1 to 86400).
    pub retry_max_secs: u64,
    /// A delivery is given up this long after its first attempt (1 to 604800).
    pub give_up_after_secs: u64,
    /// How long one attempt may take (1 to 120).
    pub timeout_secs: u64,
}

impl Default for DeliverySettings {
    fn default() -> Self {
        Self { retry_first_secs: 10, retry_max_secs: 900, give_up_after_secs: 86_400, timeout_secs: 10 }
    }
}

impl DeliverySettings {
    pub fn backoff(&self) -> Backoff {
        Backoff {
            first: Duration::from_secs(self.retry_first_secs),
            max: Duration::from_secs(self.retry_max_secs),
            give_up_after: Duration::from_secs(self.give_up_after_secs),
        }
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout_secs)
    }
}

/// How the SMTP connection is secured.
#[derive(Clone, Copy, Debug, Default, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SmtpSecurity {
    /// Plain connection upgraded with STARTTLS, which is required (port 587).
    #[default]
    Starttls,
    /// TLS from the first byte (port 465).
    Tls,
    /// No encryption: a relay on the same host only.
    None,
}

#[derive(Clone, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SmtpSettings {
    pub host: String,
    #[serde(default = "SmtpSettings::default_port")]
    pub port: u16,
    #[serde(default)]
    pub security: SmtpSecurity,
    /// The sender, e.g. `w-meter <alarms@utility.example>`.
    pub from: String,
    #[serde(default)]
    pub username: Option<String>,
    /// Secret: redacted in logs and in `wmeter config print`.
    #[serde(default)]
    pub password: Option<String>,
    /// A PEM file of extra CA certificates to trust (a private CA).
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
}

impl SmtpSettings {
    fn default_port() -> u16 {
        587
    }
}

impl std::fmt::Debug for SmtpSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpSettings")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("from", &self.from)
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "***"))
            .field("ca_file", &self.ca_file)
            .finish()
    }
}

impl NotificationSettings {
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        let range = |key, value: u64, bounds: std::ops::RangeInclusive<u64>, unit: &str| {
            if bounds.contains(&value) {
                Ok(())
            } else {
                Err((key, format!("{value} is out of range; expected {} to {} {unit}", bounds.start(), bounds.end())))
            }
        };
        range("notifications.heartbeat_secs", self.heartbeat_secs, 1..=300, "seconds")?;
        let d = &self.deliveries;
        range("notifications.deliveries.retry_first_secs", d.retry_first_secs, 1..=3600, "seconds")?;
        range("notifications.deliveries.retry_max_secs", d.retry_max_secs, 1..=86_400, "seconds")?;
        range("notifications.deliveries.give_up_after_secs", d.give_up_after_secs, 1..=604_800, "seconds")?;
        range("notifications.deliveries.timeout_secs", d.timeout_secs, 1..=120, "seconds")?;
        if let Some(smtp) = &self.smtp {
            if smtp.host.trim().is_empty() {
                return Err(("notifications.smtp.host", "is empty; expected the SMTP server's host name".to_owned()));
            }
            if smtp.from.parse::<lettre::message::Mailbox>().is_err() {
                let message = format!("'{}' is not a sender address such as w-meter <alarms@example.org>", smtp.from);
                return Err(("notifications.smtp.from", message));
            }
        }
        Ok(())
    }
}
