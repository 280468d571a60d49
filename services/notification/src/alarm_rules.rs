//! Alarm rules at work (docs/integrations.md): the projection that puts
//! every raised alarm in the deliveries of the rules it matches, grouped
//! per rule within each rule's window. Live only: a replay rebuilds the
//! alarms and sends nothing.

use async_trait::async_trait;
use chrono::SecondsFormat;
use wm_eventlog::{
    Record,
    envelopes::decode,
    projection::{ApplyError, Effects, Projection},
};
use wm_proto::{
    Payload, topics,
    v1::{AlarmDeviceKind, AlarmRaised, AlarmSeverity},
};
use wm_storage::{StorageError, Tx};

use crate::{
    domain::alarm_rule::{AlarmFacts, AlarmRule, Devices},
    state::NotificationState,
    storage::{
        alarm_rules,
        deliveries::{self, AlarmSummary},
        directory,
    },
};

#[derive(Clone, Debug)]
pub struct AlarmRulesProjection(pub NotificationState);

#[async_trait]
impl Projection for AlarmRulesProjection {
    fn name(&self) -> &'static str {
        "notification.alarm-rules"
    }

    fn topics(&self) -> &'static [&'static str] {
        &[topics::ALARMS]
    }

    async fn apply(&self, records: &[Record], effects: Effects) -> Result<(), ApplyError> {
        if effects == Effects::Suppressed {
            return Ok(());
        }
        let raised: Vec<(AlarmRaised, Option<chrono::DateTime<chrono::Utc>>)> = records
            .iter()
            .filter_map(decode)
            .filter_map(|envelope| {
                let at = envelope.occurred_at_utc();
                match envelope.payload {
                    Some(Payload::AlarmRaised(alarm)) => Some((alarm, at)),
                    _ => None,
                }
            })
            .collect();
        if raised.is_empty() {
            return Ok(());
        }
        let state = &self.0;
        let mut tx = state.db.begin_write().await?;
        let rules = alarm_rules::enabled(&mut tx).await?;
        let mut queued = false;
        for (alarm, at) in &raised {
            queued |= route(&mut tx, &rules, alarm, *at, state).await?;
        }
        tx.commit().await?;
        if queued {
            state.deliveries_due.notify_one();
        }
        Ok(())
    }

    /// Nothing to empty: deliveries are what was sent, not a view of the log.
    async fn reset(&self) -> Result<(), ApplyError> {
        Ok(())
    }
}

/// Puts `alarm` in the deliveries of the `rules` it matches; whether one
/// is due at once.
async fn route(
    tx: &mut Tx,
    rules: &[AlarmRule],
    alarm: &AlarmRaised,
    at: Option<chrono::DateTime<chrono::Utc>>,
    state: &NotificationState,
) -> Result<bool, StorageError> {
    let severity = severity(alarm.severity());
    let by_gateway = rules.iter().any(|r| matches!(r.matcher.devices, Devices::Gateway { .. }));
    let relayed_by = if by_gateway { alarm_rules::relay_of(tx, &alarm.device_id).await? } else { None };
    let facts = AlarmFacts {
        device_id: &alarm.device_id,
        alarm_type: &alarm.alarm_type,
        severity,
        relayed_by: relayed_by.as_deref(),
    };
    let matched: Vec<&AlarmRule> = rules.iter().filter(|rule| rule.matcher.matches(&facts)).collect();
    if matched.is_empty() {
        return Ok(false);
    }
    let now = state.clock.now();
    let summary = AlarmSummary {
        alarm_id: alarm.alarm_id.clone(),
        device_id: alarm.device_id.clone(),
        device_name: directory::device_name(tx, &alarm.device_id).await?,
        device_kind: match alarm.device_kind() {
            AlarmDeviceKind::Gateway => "gateway",
            _ => "meter",
        }
        .to_owned(),
        alarm_type: alarm.alarm_type.clone(),
        severity: severity.to_owned(),
        raised_at: at.unwrap_or(now).to_rfc3339_opts(SecondsFormat::Secs, true),
        details: serde_json::from_str(&alarm.details_json).unwrap_or_default(),
    };
    let mut due_now = false;
    for rule in matched {
        let added = deliveries::add(tx, rule, &summary, now).await?;
        due_now |= added && rule.group_window_secs == 0;
    }
    Ok(due_now)
}

fn severity(severity: AlarmSeverity) -> &'static str {
    match severity {
        AlarmSeverity::Critical => "critical",
        AlarmSeverity::Major => "major",
        AlarmSeverity::Minor => "minor",
        AlarmSeverity::Warning | AlarmSeverity::Unspecified => "warning",
    }
}
