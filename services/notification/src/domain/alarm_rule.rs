//! An alarm rule (docs/integrations.md): which alarms it matches, and where
//! it sends them, by email or by signed webhook. Pure: matching and the
//! rules a rule must follow, with no storage.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The longest rule name.
pub const MAX_NAME_CHARS: usize = 100;
/// The most email recipients of one rule.
pub const MAX_RECIPIENTS: usize = 20;
/// The most devices a rule lists.
pub const MAX_DEVICES: usize = 1000;
/// The longest grouping window: an hour.
pub const MAX_GROUP_WINDOW_SECS: u32 = 3600;
/// A webhook secret's length bounds.
pub const SECRET_CHARS: std::ops::RangeInclusive<usize> = 16..=256;
/// The alarm severities, most severe first.
pub const SEVERITIES: [&str; 4] = ["critical", "major", "minor", "warning"];

/// Which devices' alarms a rule takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "scope", rename_all = "camelCase", deny_unknown_fields)]
pub enum Devices {
    /// Every device.
    All,
    /// These devices (their ids).
    List { ids: Vec<String> },
    /// A gateway and the meters it last relayed.
    #[serde(rename_all = "camelCase")]
    Gateway { gateway_id: String },
}

/// What alarms a rule matches; an empty list matches anything.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Match {
    /// Alarm types (`leak`, `burst`, `continuous-flow`…); empty: any type.
    pub types: Vec<String>,
    /// `critical`, `major`, `minor`, `warning`; empty: any severity.
    pub severities: Vec<String>,
    pub devices: Devices,
}

/// Where a rule sends. A webhook's secret is kept apart: it is never read
/// back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Channel {
    Email { to: Vec<String> },
    Webhook { url: String },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlarmRule {
    pub id: String,
    pub name: String,
    pub enabled: bool,
    pub matcher: Match,
    pub channel: Channel,
    /// Alarms matched within this many seconds after the first go out as
    /// one message.
    pub group_window_secs: u32,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// An alarm, as a rule sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlarmFacts<'a> {
    pub device_id: &'a str,
    pub alarm_type: &'a str,
    pub severity: &'a str,
    /// The gateway that last relayed the device (a meter), if known.
    pub relayed_by: Option<&'a str>,
}

impl Match {
    pub fn matches(&self, alarm: &AlarmFacts<'_>) -> bool {
        let typed = self.types.is_empty() || self.types.iter().any(|t| t == alarm.alarm_type);
        let severe = self.severities.is_empty() || self.severities.iter().any(|s| s == alarm.severity);
        let device = match &self.devices {
            Devices::All => true,
            Devices::List { ids } => ids.iter().any(|id| id.eq_ignore_ascii_case(alarm.device_id)),
            Devices::Gateway { gateway_id } => {
                gateway_id.eq_ignore_ascii_case(alarm.device_id)
                    || alarm.relayed_by.is_some_and(|g| g.eq_ignore_ascii_case(gateway_id))
            }
        };
        typed && severe && device
    }
}

/// What is wrong with a rule, field by field (JSON paths).
pub type Invalid = Vec<(&'static str, String)>;

/// Checks a rule as given; `secret` is the new webhook secret, if one is
/// given, and `has_secret` whether one is stored already.
pub fn check(rule: &AlarmRule, secret: Option<&str>, has_secret: bool) -> Result<(), Invalid> {
    let mut invalid = Invalid::new();
    let name = rule.name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        invalid
            .push(("name", format!("The name must be 1 to {MAX_NAME_CHARS} characters, without control characters")));
    }
    if rule.matcher.types.iter().any(|t| t.trim().is_empty() || t.len() > 50 || t.chars().any(char::is_control)) {
        invalid.push(("match.types", "Each alarm type must be 1 to 50 characters".to_owned()));
    }
    if let Some(bad) = rule.matcher.severities.iter().find(|s| !SEVERITIES.contains(&s.as_str())) {
        invalid.push((
            "match.severities",
            format!("Unknown severity '{bad}'; expected critical, major, minor or warning"),
        ));
    }
    match &rule.matcher.devices {
        Devices::All => {}
        Devices::List { ids } if ids.is_empty() || ids.len() > MAX_DEVICES || !ids.iter().all(|id| is_id(id)) => {
            invalid.push(("match.devices", format!("List 1 to {MAX_DEVICES} device ids of 24 hexadecimal digits")));
        }
        Devices::List { .. } => {}
        Devices::Gateway { gateway_id } if !is_id(gateway_id) => {
            invalid.push(("match.devices", "The gateway id must be 24 hexadecimal digits".to_owned()));
        }
        Devices::Gateway { .. } => {}
    }
    match &rule.channel {
        Channel::Email { to } => {
            if to.is_empty() || to.len() > MAX_RECIPIENTS {
                invalid.push(("channel.to", format!("Give 1 to {MAX_RECIPIENTS} email addresses")));
            } else if let Some(bad) = to.iter().find(|a| a.parse::<lettre::Address>().is_err()) {
                invalid.push(("channel.to", format!("'{bad}' is not an email address")));
            }
        }
        Channel::Webhook { url } => {
            if !is_http_url(url) {
                invalid.push(("channel.url", "The URL must be an absolute http:// or https:// URL".to_owned()));
            }
            match secret {
                Some(secret) if !SECRET_CHARS.contains(&secret.chars().count()) => {
                    invalid.push(("channel.secret", "The secret must be 16 to 256 characters".to_owned()));
                }
                None if !has_secret => invalid.push(("channel.secret", "A webhook needs a secret".to_owned())),
                _ => {}
            }
        }
    }
    if rule.group_window_secs > MAX_GROUP_WINDOW_SECS {
        invalid.push(("groupWindowSecs", format!("The window must be 0 to {MAX_GROUP_WINDOW_SECS} seconds")));
    }
    if invalid.is_empty() { Ok(()) } else { Err(invalid) }
}

fn is_id(id: &str) -> bool {
    id.len() == 24 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

fn is_http_url(url: &str) -> bool {
    let rest = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://"));
    rest.is_some_and(|rest| {
        let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
        !host.is_empty() && url.len() <= 2000 && !url.chars().any(|c| c.is_whitespace() || c.is_control())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const METER: &str = "65f0a1b2c3d4e5f6abcdef01";
    const GATEWAY: &str = "65f0a1b2c3d4e5f601234567";

    fn rule(matcher: Match, channel: Channel) -> AlarmRule {
        AlarmRule {
            id: "r1".into(),
            name: "Leaks to the night desk".into(),
            enabled: true,
            matcher,
            channel,
            group_window_secs: 60,
            created_at: Utc::now(),
            updated_at: Utc::now(),
        }
    }

    fn leak(relayed_by: Option<&str>) -> AlarmFacts<'_> {
        AlarmFacts { device_id: METER, alarm_type: "leak", severity: "critical", relayed_by }
    }

    #[test]
    fn given_a_match_when_an_alarm_comes_then_type_severity_and_devices_must_all_match() {
        let any = Match { types: vec![], severities: vec![], devices: Devices::All };
        assert!(any.matches(&leak(None)));
        let burst = Match { types: vec!["burst".into()], ..any.clone() };
        assert!(!burst.matches(&leak(None)));
        let minor = Match { severities: vec!["minor".into()], ..any.clone() };
        assert!(!minor.matches(&leak(None)));
        let listed = Match { devices: Devices::List { ids: vec![METER.to_uppercase()] }, ..any.clone() };
        assert!(listed.matches(&leak(None)), "ids in any case");
        let gateway = Match { devices: Devices::Gateway { gateway_id: GATEWAY.into() }, ..any };
        assert!(gateway.matches(&leak(Some(GATEWAY))), "a meter the gateway relays");
        assert!(!gateway.matches(&leak(None)), "a meter it does not");
        let own = AlarmFacts { device_id: GATEWAY, alarm_type: "lost", severity: "major", relayed_by: None };
        assert!(gateway.matches(&own), "the gateway itself");
    }

    #[test]
    fn given_a_rule_when_a_field_breaks_its_rule_then_the_field_says_why() {
        let all = Match { types: vec![], severities: vec![], devices: Devices::All };
        let email = Channel::Email { to: vec!["desk@example.org".into()] };
        assert_eq!(check(&rule(all.clone(), email), None, false), Ok(()));
        let webhook = Channel::Webhook { url: "https://hooks.example.org/w".into() };
        assert_eq!(check(&rule(all.clone(), webhook.clone()), None, true), Ok(()), "the stored secret is kept");
        let fields = |r: AlarmRule, secret| {
            check(&r, secret, false).unwrap_err().into_iter().map(|(f, _)| f).collect::<Vec<_>>()
        };
        assert_eq!(fields(rule(all.clone(), webhook), None), ["channel.secret"]);
        let bad = Match {
            types: vec![" ".into()],
            severities: vec!["huge".into()],
            devices: Devices::List { ids: vec!["x".into()] },
        };
        let mut broken = rule(bad, Channel::Webhook { url: "ftp://x".into() });
        broken.name = " ".into();
        broken.group_window_secs = 3601;
        assert_eq!(
            fields(broken, Some("short")),
            [
                "name",
                "match.types",
                "match.severities",
                "match.devices",
                "channel.url",
                "channel.secret",
                "groupWindowSecs"
            ]
        );
        let mail = rule(all, Channel::Email { to: vec!["not an address".into()] });
        assert_eq!(
            check(&mail, None, false).unwrap_err(),
            [("channel.to", "'not an address' is not an email address".to_owned())]
        );
    }
}
