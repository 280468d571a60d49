//! The leak detectors at work (`domain::detect`, docs/analytics.md).
//!
//! - After each batch of readings the rollups add, the meters of the batch
//!   have the hours their newest reading closes decided, in the rollups'
//!   transaction: a redelivered batch finds its readings claimed and
//!   decides nothing again.
//! - Every minute, meters silent for `silence_hours` that have a detector's
//!   alarm open have their silent hours decided, so the alarm clears.
//!
//! Findings become alarm events (`domain::alarm`), raised as w-meter
//! (`service:telemetry-ingest`) at the time the hours give. A detector
//! clears only the alarms it raised. Live only: a rebuild restores the
//! alarms from their own events.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use chrono::DateTime;
use chrono_tz::Tz;
use tokio_util::sync::CancellationToken;
use wm_domain::DeviceKind;
use wm_proto::Envelope;
use wm_storage::{StorageError, Tx};

use crate::{
    AlarmSettings, DetectorSettings, NAME,
    actions::envelopes,
    domain::{
        alarm,
        detect::{Finding, State},
        rollup::{HOUR_US, Reading},
    },
    state::IngestState,
    storage::{alarms, detectors, telemetry, thresholds},
};

/// Meters whose silent hours are decided per round, at most.
const SWEEP: i64 = 500;
/// How far back a meter decided for the first time starts, at most: the
/// longest window of the default thresholds and then some.
const FIRST_LOOKBACK_US: i64 = 8 * 24 * HOUR_US;

/// Meters remembered by [`Detectors::waiting`], at most.
const WAITING: usize = 1_000_000;

/// What the detectors need to decide a meter's hours.
#[derive(Clone, Debug)]
pub struct Detectors {
    pub settings: DetectorSettings,
    pub alarms: AlarmSettings,
    pub tz: Tz,
    /// For the meters this process looked up, an hour their next decision
    /// starts at or after (their next hour, or first hour with readings): a
    /// reading that closes no hour past it needs no look at the database.
    /// A lower bound only ever delays a decision, which does not change it.
    waiting: Arc<Mutex<HashMap<String, i64>>>,
}

impl Detectors {
    pub fn new(settings: DetectorSettings, alarms: AlarmSettings, tz: Tz) -> Self {
        Self { settings, alarms, tz, waiting: Arc::default() }
    }

    fn waiting(&self) -> std::sync::MutexGuard<'_, HashMap<String, i64>> {
        self.waiting.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Who detectors raise and clear alarms as.
pub fn actor() -> String {
    format!("service:{NAME}")
}

impl Detectors {
    /// Decides, for each meter of `readings` (new to the rollups), the hours
    /// its newest reading closes; persists the alarm events found and
    /// returns them, to stage. `now_us` bounds a reading from the future.
    pub async fn after_readings(
        &self,
        tx: &mut Tx,
        readings: &[Reading],
        now_us: i64,
    ) -> Result<Vec<Envelope>, StorageError> {
        let lateness = i64::from(self.settings.lateness_minutes) * 60_000_000;
        let (mut until, mut earliest): (HashMap<&str, i64>, HashMap<&str, i64>) = Default::default();
        for r in readings {
            let closes = r.at_us.min(now_us) - lateness;
            until.entry(&r.meter_id).and_modify(|u| *u = (*u).max(closes)).or_insert(closes);
            earliest.entry(&r.meter_id).and_modify(|e| *e = (*e).min(r.at_us)).or_insert(r.at_us);
        }
        {
            let mut waiting = self.waiting();
            until.retain(|meter, until| match waiting.get_mut(*meter) {
                Some(next) => {
                    // An earlier reading may start a meter never decided earlier.
                    *next = (*next).min(earliest[meter] - earliest[meter].rem_euclid(HOUR_US));
                    *until >= *next + HOUR_US
                }
                None => true,
            });
        }
        if until.is_empty() {
            return Ok(Vec::new());
        }
        let (decided, next) = self.decide(tx, until).await?;
        let mut waiting = self.waiting();
        if waiting.len() + next.len() > WAITING {
            waiting.clear();
        }
        waiting.extend(next);
        Ok(decided)
    }

    /// Decides each meter's hours up to its `until` (µs, exclusive);
    /// persists the alarm events found and returns them, with the hour each
    /// meter's next decision starts at. A meter never decided starts at its
    /// first hour with readings, whichever reading came first, or
    /// [`FIRST_LOOKBACK_US`] before `until` if that is later.
    async fn decide(
        &self,
        tx: &mut Tx,
        until: HashMap<&str, i64>,
    ) -> Result<(Vec<Envelope>, Vec<(String, i64)>), StorageError> {
        let meters: Vec<&str> = until.keys().copied().collect();
        let mut states = detectors::load(tx, &meters).await?;
        let new: Vec<&str> = meters.iter().copied().filter(|m| !states.contains_key(*m)).collect();
        for (meter, first) in detectors::first_hours(tx, &new).await? {
            let earliest = until[meter.as_str()] - FIRST_LOOKBACK_US;
            let first = first.max(earliest - earliest.rem_euclid(HOUR_US));
            states.insert(meter, State { next_hour: Some(first), ..State::default() });
        }
        let advancing: Vec<&str> = meters
            .into_iter()
            .filter(|m| states.get(*m).and_then(|s| s.next_hour).is_some_and(|next| until[m] >= next + HOUR_US))
            .collect();
        let next = |states: &HashMap<String, State>| {
            states.iter().filter_map(|(m, s)| Some((m.clone(), s.next_hour?))).collect::<Vec<_>>()
        };
        if advancing.is_empty() {
            return Ok((Vec::new(), next(&states)));
        }
        let from = advancing.iter().filter_map(|m| states[*m].next_hour).min().unwrap_or_default();
        let sums = detectors::hours(tx, &advancing, from).await?;
        let own = thresholds::of(tx, &advancing).await?;
        let defaults = self.settings.thresholds();
        let mut decided = Vec::new();
        for meter in &advancing {
            let thresholds = own.get(*meter).copied().unwrap_or_default().over(defaults);
            let state = states.get_mut(*meter).expect("loaded or started above");
            let (next, empty) = (state.next_hour.unwrap_or_default(), Default::default());
            let found = state.advance(next, until[meter], sums.get(*meter).unwrap_or(&empty), &thresholds, self.tz);
            decided.extend(self.alarms_of(tx, meter, found).await?);
        }
        let changed: Vec<(&str, &State)> = advancing.iter().map(|m| (*m, &states[*m])).collect();
        detectors::save(tx, &changed).await?;
        Ok((decided, next(&states)))
    }

    /// The alarm events `findings` decide on `meter`'s alarms.
    async fn alarms_of(&self, tx: &mut Tx, meter: &str, findings: Vec<Finding>) -> Result<Vec<Envelope>, StorageError> {
        let (actor, mut out) = (actor(), Vec::new());
        for finding in findings {
            let (alarm_type, at_us) = match &finding {
                Finding::Raise { alarm_type, at_us, .. } | Finding::Clear { alarm_type, at_us } => {
                    (*alarm_type, *at_us)
                }
            };
            let open = alarms::open(tx, meter, alarm_type).await?;
            let command = match finding {
                Finding::Raise { evidence, .. } => alarm::Command::Raise {
                    device_id: meter.to_owned(),
                    device_kind: DeviceKind::Meter,
                    alarm_type: alarm_type.to_owned(),
                    severity: self.alarms.severity(alarm_type),
                    at: DateTime::from_timestamp_micros(at_us).unwrap_or_default(),
                    details: evidence,
                },
                Finding::Clear { .. } => match &open {
                    Some(open) if alarms::raised_by(tx, &open.alarm_id).await?.as_deref() == Some(actor.as_str()) => {
                        alarm::Command::ClearByDevice
                    }
                    _ => continue,
                },
            };
            let events = alarm::decide(open.as_ref(), command).unwrap_or_default();
            let at = DateTime::from_timestamp_micros(at_us).unwrap_or_default();
            let decided = envelopes(meter, &actor, events, at);
            // The next finding of the batch sees this one's alarm.
            telemetry::persist_all(tx, &decided).await?;
            out.extend(decided);
        }
        Ok(out)
    }

    /// Decides the silent hours of up to [`SWEEP`] meters whose detector
    /// alarms are open; returns the alarm events found, staged.
    pub async fn sweep(&self, state: &IngestState) -> Result<usize, StorageError> {
        let now = state.now().timestamp_micros();
        let until_us = now - i64::from(self.settings.silence_hours) * HOUR_US;
        let meters = detectors::silent(&state.db, until_us - HOUR_US, SWEEP).await?;
        if meters.is_empty() {
            return Ok(0);
        }
        let until = meters.iter().map(|m| (m.as_str(), until_us)).collect();
        let mut tx = state.db.begin_write().await?;
        let (decided, _) = self.decide(&mut tx, until).await?;
        state.relay.stage(&mut tx, None, &decided).await?;
        tx.commit().await?;
        state.relay.wake();
        Ok(decided.len())
    }
}

/// Sweeps `every` so often (a minute, when served) until `stop`.
pub async fn run(detectors: Detectors, state: IngestState, every: Duration, stop: CancellationToken) {
    loop {
        match detectors.sweep(&state).await {
            Ok(0) => {}
            Ok(events) => tracing::info!(events, "silent meters' hours decided"),
            Err(e) => tracing::warn!(error = ?e, "cannot decide silent meters' hours yet, retrying"),
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(every) => {}
        }
    }
}
