//! The `analytics` settings: the consumption rollups and the detectors
//! that find leaks in them.

use serde::{Deserialize, Serialize};

use crate::domain::{
    detect::Thresholds,
    thresholds::{CONTINUOUS_FLOW_HOURS, ML_PER_HOUR, STUCK_DAYS},
};

/// The `analytics` settings: consumption rollups and leak detectors.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct AnalyticsSettings {
    /// The network's time zone (an IANA name, e.g. `Europe/Paris`): the
    /// rollups' days and months are its local ones. Changing it applies to
    /// new readings; `wmeter replay` re-buckets the old ones.
    pub time_zone: String,
    /// Whether the rollups are kept (on by default; off only to measure
    /// what they cost, `make bench`).
    pub rollups: bool,
    /// The detectors that raise derived alarms from the rollups.
    pub detectors: DetectorSettings,
}

impl Default for AnalyticsSettings {
    fn default() -> Self {
        Self { time_zone: "UTC".to_owned(), rollups: true, detectors: DetectorSettings::default() }
    }
}

/// The `analytics.detectors` settings: when the derived alarms fire, for
/// every meter whose operator did not set its own thresholds.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct DetectorSettings {
    /// Whether the detectors run (they need the rollups).
    pub enabled: bool,
    /// Hours in a row with consumption that raise `continuous-flow`.
    pub continuous_flow_hours: u32,
    /// `night-flow`: the lowest hour between 02:00 and 05:00 above this many
    /// litres.
    pub night_flow_litres_per_hour: f64,
    /// `burst`: an hour above this many litres.
    pub burst_litres_per_hour: f64,
    /// `stuck-meter`: days in a row without consumption, the meter heard.
    pub stuck_days: u32,
    /// How late a meter's reading may be and still count: an hour is decided
    /// once the meter sent a reading measured this many minutes after it ends.
    pub lateness_minutes: u32,
    /// Hours after which a silent meter's hours are decided anyway (as
    /// hours without consumption), so that its open alarms clear.
    pub silence_hours: u32,
}

impl Default for DetectorSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            continuous_flow_hours: 24,
            night_flow_litres_per_hour: 5.0,
            burst_litres_per_hour: 1000.0,
            stuck_days: 7,
            lateness_minutes: 60,
            silence_hours: 3,
        }
    }
}

/// Litres as whole millilitres; 0 for what is not a number.
pub fn millilitres(litres: f64) -> i64 {
    if litres.is_finite() { (litres * 1000.0).round() as i64 } else { 0 }
}

impl DetectorSettings {
    /// The network-wide thresholds.
    pub fn thresholds(&self) -> Thresholds {
        Thresholds {
            continuous_flow_hours: self.continuous_flow_hours,
            night_flow_ml: millilitres(self.night_flow_litres_per_hour),
            burst_ml: millilitres(self.burst_litres_per_hour),
            stuck_days: self.stuck_days,
        }
    }

    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        let out = |key, value: String, range: &str| Err((key, format!("{value} is out of range; expected {range}")));
        if !CONTINUOUS_FLOW_HOURS.contains(&self.continuous_flow_hours) {
            return out(
                "analytics.detectors.continuous_flow_hours",
                self.continuous_flow_hours.to_string(),
                "2 to 168",
            );
        }
        for (key, litres) in [
            ("analytics.detectors.night_flow_litres_per_hour", self.night_flow_litres_per_hour),
            ("analytics.detectors.burst_litres_per_hour", self.burst_litres_per_hour),
        ] {
            if !ML_PER_HOUR.contains(&millilitres(litres)) {
                return out(key, litres.to_string(), "0.001 to 1000000");
            }
        }
        if !STUCK_DAYS.contains(&self.stuck_days) {
            return out("analytics.detectors.stuck_days", self.stuck_days.to_string(), "1 to 365");
        }
        if self.lateness_minutes > 24 * 60 {
            return out("analytics.detectors.lateness_minutes", self.lateness_minutes.to_string(), "0 to 1440");
        }
        if !(1..=168).contains(&self.silence_hours) {
            return out("analytics.detectors.silence_hours", self.silence_hours.to_string(), "1 to 168");
        }
        Ok(())
    }
}

impl AnalyticsSettings {
    /// The network's time zone; UTC until validated.
    pub fn tz(&self) -> chrono_tz::Tz {
        self.time_zone.parse().unwrap_or(chrono_tz::UTC)
    }

    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        self.time_zone.parse::<chrono_tz::Tz>().map_err(|_| {
            (
                "analytics.time_zone",
                format!("{:?} is not an IANA time zone; expected e.g. Europe/Paris or UTC", self.time_zone),
            )
        })?;
        self.detectors.validate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_network_time_zone_is_an_iana_name() {
        let paris = AnalyticsSettings { time_zone: "Europe/Paris".into(), ..AnalyticsSettings::default() };
        assert_eq!((paris.validate(), paris.tz()), (Ok(()), chrono_tz::Europe::Paris));
        let bad = AnalyticsSettings { time_zone: "Mars/Olympus".into(), ..AnalyticsSettings::default() };
        let (key, message) = bad.validate().unwrap_err();
        assert_eq!(key, "analytics.time_zone");
        assert!(message.contains("\"Mars/Olympus\" is not an IANA time zone"), "{message}");
    }

    #[test]
    fn detector_thresholds_default_for_a_household_and_name_a_bad_key() {
        let t = DetectorSettings::default().thresholds();
        assert_eq!((t.continuous_flow_hours, t.night_flow_ml, t.burst_ml, t.stuck_days), (24, 5_000, 1_000_000, 7));
        let bad = |detectors| AnalyticsSettings { detectors, ..AnalyticsSettings::default() }.validate().unwrap_err().0;
        let d = DetectorSettings::default;
        assert_eq!(
            bad(DetectorSettings { continuous_flow_hours: 1, ..d() }),
            "analytics.detectors.continuous_flow_hours"
        );
        assert_eq!(
            bad(DetectorSettings { burst_litres_per_hour: 0.0, ..d() }),
            "analytics.detectors.burst_litres_per_hour"
        );
        assert_eq!(
            bad(DetectorSettings { night_flow_litres_per_hour: f64::NAN, ..d() }),
            "analytics.detectors.night_flow_litres_per_hour"
        );
        assert_eq!(bad(DetectorSettings { stuck_days: 0, ..d() }), "analytics.detectors.stuck_days");
        assert_eq!(bad(DetectorSettings { silence_hours: 0, ..d() }), "analytics.detectors.silence_hours");
    }
}
