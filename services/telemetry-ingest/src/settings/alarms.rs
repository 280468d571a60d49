//! The `alarms` settings: the severity of each alarm type, and how long a
//! valve command may wait for its ack.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::domain::{
    alarm::{Severity, VALVE_TIMEOUT},
    detect::{CONTINUOUS_FLOW, NIGHT_FLOW, STUCK_METER},
};

/// The `alarms` settings.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct AlarmSettings {
    /// The severity of each alarm type: `critical`, `major`, `minor` or
    /// `warning`. Set a type to add or change it; the defaults stay.
    pub severities: BTreeMap<String, String>,
    /// The severity of a type not in `severities`.
    pub other_severity: String,
    /// Seconds a valve command may go without the gateway's ack; then it
    /// is timed out and a `valve-timeout` alarm is raised.
    pub valve_timeout_secs: u64,
}

impl Default for AlarmSettings {
    fn default() -> Self {
        let severities = [("leak", "critical"), ("burst", "critical"), ("tamper", "major"), ("low-battery", "minor")]
            .into_iter()
            .chain([
                (VALVE_TIMEOUT, "major"),
                (CONTINUOUS_FLOW, "major"),
                (NIGHT_FLOW, "minor"),
                (STUCK_METER, "minor"),
            ])
            .map(|(kind, severity)| (kind.to_owned(), severity.to_owned()))
            .collect();
        Self { severities, other_severity: Severity::Warning.as_str().to_owned(), valve_timeout_secs: 600 }
    }
}

impl AlarmSettings {
    /// The severity of an alarm of `alarm_type`.
    pub fn severity(&self, alarm_type: &str) -> Severity {
        let word = self.severities.get(alarm_type).unwrap_or(&self.other_severity);
        word.parse().unwrap_or(Severity::Warning)
    }

    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        let words = || Severity::ALL.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
        for (kind, word) in self.severities.iter().chain([(&"*".to_owned(), &self.other_severity)]) {
            if word.parse::<Severity>().is_err() {
                let key = if kind == "*" { "alarms.other_severity" } else { "alarms.severities" };
                return Err((key, format!("{word:?} for {kind:?} is not a severity; expected one of {}", words())));
            }
        }
        if !(10..=86_400).contains(&self.valve_timeout_secs) {
            return Err((
                "alarms.valve_timeout_secs",
                format!("{} is out of range; expected 10 to 86400", self.valve_timeout_secs),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alarm_severities_default_by_type_and_can_be_changed() {
        let defaults = AlarmSettings::default();
        assert_eq!(defaults.severity("leak"), Severity::Critical);
        assert_eq!(defaults.severity("burst"), Severity::Critical);
        assert_eq!(defaults.severity("tamper"), Severity::Major);
        assert_eq!(defaults.severity("low-battery"), Severity::Minor);
        assert_eq!(defaults.severity("door-open"), Severity::Warning);
        assert_eq!(defaults.valve_timeout_secs, 600);
        let mut changed = AlarmSettings::default();
        changed.severities.insert("tamper".into(), "critical".into());
        changed.other_severity = "minor".into();
        assert_eq!((changed.severity("tamper"), changed.severity("door-open")), (Severity::Critical, Severity::Minor));
        assert_eq!(changed.validate(), Ok(()));
    }

    #[test]
    fn alarm_settings_name_the_bad_key() {
        let mut bad = AlarmSettings::default();
        bad.severities.insert("leak".into(), "huge".into());
        assert_eq!(bad.validate().unwrap_err().0, "alarms.severities");
        let bad = AlarmSettings { other_severity: "meh".into(), ..AlarmSettings::default() };
        assert_eq!(bad.validate().unwrap_err().0, "alarms.other_severity");
        let bad = AlarmSettings { valve_timeout_secs: 1, ..AlarmSettings::default() };
        assert_eq!(bad.validate().unwrap_err().0, "alarms.valve_timeout_secs");
    }
}
