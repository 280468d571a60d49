//! A meter's own thresholds for the leak detectors (`detect`): each one
//! the operator set replaces the network's default; the others follow it.
//! Setting them is one event, `MeterThresholdsSet`, that names them all.

use std::ops::RangeInclusive;

use wm_proto::{Payload, v1::MeterThresholdsSet};

use super::detect::Thresholds;

/// The ranges a threshold is kept in, per meter and network-wide.
pub const CONTINUOUS_FLOW_HOURS: RangeInclusive<u32> = 2..=168;
/// Millilitres in an hour: 1 mL to 1,000 m³.
pub const ML_PER_HOUR: RangeInclusive<i64> = 1..=1_000_000_000;
pub const STUCK_DAYS: RangeInclusive<u32> = 1..=365;

/// The thresholds an operator set for one meter; `None` follows the
/// network's default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    pub continuous_flow_hours: Option<u32>,
    pub night_flow_ml: Option<i64>,
    pub burst_ml: Option<i64>,
    pub stuck_days: Option<u32>,
}

/// A threshold the API names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    ContinuousFlowHours,
    NightFlow,
    Burst,
    StuckDays,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ThresholdError {
    #[error("no such water meter")]
    UnknownMeter,
    #[error("{0:?} is out of range")]
    OutOfRange(Field),
}

impl Overrides {
    /// The thresholds the meter's detectors use.
    pub fn over(&self, defaults: Thresholds) -> Thresholds {
        Thresholds {
            continuous_flow_hours: self.continuous_flow_hours.unwrap_or(defaults.continuous_flow_hours),
            night_flow_ml: self.night_flow_ml.unwrap_or(defaults.night_flow_ml),
            burst_ml: self.burst_ml.unwrap_or(defaults.burst_ml),
            stuck_days: self.stuck_days.unwrap_or(defaults.stuck_days),
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == Overrides::default()
    }

    /// The first threshold out of its range, if any.
    fn check(&self) -> Result<(), ThresholdError> {
        let out = |field| Err(ThresholdError::OutOfRange(field));
        if self.continuous_flow_hours.is_some_and(|h| !CONTINUOUS_FLOW_HOURS.contains(&h)) {
            return out(Field::ContinuousFlowHours);
        }
        if self.night_flow_ml.is_some_and(|ml| !ML_PER_HOUR.contains(&ml)) {
            return out(Field::NightFlow);
        }
        if self.burst_ml.is_some_and(|ml| !ML_PER_HOUR.contains(&ml)) {
            return out(Field::Burst);
        }
        if self.stuck_days.is_some_and(|d| !STUCK_DAYS.contains(&d)) {
            return out(Field::StuckDays);
        }
        Ok(())
    }
}

/// Decides setting `overrides` on the meter `meter_id` (known: whether it
/// is registered); nothing when they are what it has.
pub fn decide(
    meter_id: &str,
    known: bool,
    current: &Overrides,
    overrides: Overrides,
) -> Result<Vec<Payload>, ThresholdError> {
    if !known {
        return Err(ThresholdError::UnknownMeter);
    }
    overrides.check()?;
    if overrides == *current {
        return Ok(Vec::new());
    }
    Ok(vec![Payload::MeterThresholdsSet(MeterThresholdsSet {
        meter_id: meter_id.to_owned(),
        continuous_flow_hours: overrides.continuous_flow_hours,
        night_flow_ml: overrides.night_flow_ml,
        burst_ml: overrides.burst_ml,
        stuck_days: overrides.stuck_days,
    })])
}

/// The overrides an event sets.
pub fn apply(event: &MeterThresholdsSet) -> Overrides {
    Overrides {
        continuous_flow_hours: event.continuous_flow_hours,
        night_flow_ml: event.night_flow_ml,
        burst_ml: event.burst_ml,
        stuck_days: event.stuck_days,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULTS: Thresholds =
        Thresholds { continuous_flow_hours: 24, night_flow_ml: 5_000, burst_ml: 1_000_000, stuck_days: 7 };

    #[test]
    fn given_defaults_when_an_operator_sets_two_thresholds_then_those_two_replace_the_defaults() {
        let set = Overrides { continuous_flow_hours: Some(12), night_flow_ml: Some(2_000), ..Overrides::default() };
        let events = decide("m1", true, &Overrides::default(), set).unwrap();
        let [Payload::MeterThresholdsSet(event)] = events.as_slice() else { panic!("{events:?}") };
        let then = apply(event);
        assert_eq!(then, set);
        assert_eq!(
            then.over(DEFAULTS),
            Thresholds { continuous_flow_hours: 12, night_flow_ml: 2_000, burst_ml: 1_000_000, stuck_days: 7 }
        );
    }

    #[test]
    fn given_overrides_when_they_are_set_again_then_nothing_happens_and_none_puts_the_meter_back_on_defaults() {
        let set = Overrides { stuck_days: Some(3), ..Overrides::default() };
        assert_eq!(decide("m1", true, &set, set), Ok(Vec::new()));
        let events = decide("m1", true, &set, Overrides::default()).unwrap();
        let [Payload::MeterThresholdsSet(event)] = events.as_slice() else { panic!("{events:?}") };
        assert!(apply(event).is_empty());
    }

    #[test]
    fn a_threshold_out_of_range_or_an_unknown_meter_is_refused() {
        let none = Overrides::default();
        let bad = |o| decide("m1", true, &none, o).unwrap_err();
        assert_eq!(
            bad(Overrides { continuous_flow_hours: Some(1), ..none }),
            ThresholdError::OutOfRange(Field::ContinuousFlowHours)
        );
        assert_eq!(bad(Overrides { night_flow_ml: Some(0), ..none }), ThresholdError::OutOfRange(Field::NightFlow));
        assert_eq!(bad(Overrides { burst_ml: Some(-5), ..none }), ThresholdError::OutOfRange(Field::Burst));
        assert_eq!(bad(Overrides { stuck_days: Some(366), ..none }), ThresholdError::OutOfRange(Field::StuckDays));
        assert_eq!(decide("m1", false, &none, none), Err(ThresholdError::UnknownMeter));
    }
}
