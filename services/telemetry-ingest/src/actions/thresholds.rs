//! An operator sets a meter's own detector thresholds, audited.

use serde_json::json;
use wm_eventlog::audit::Attempt;

use super::{commit, envelopes};
use crate::{
    domain::thresholds::{self, Overrides},
    error::IngestError,
    state::IngestState,
    storage::{directory, thresholds as stored},
};

/// Sets `overrides` as the meter's own thresholds, as the user `by`; the
/// ones left `None` follow the network's defaults.
pub async fn set(
    state: &IngestState,
    attempt: &Attempt,
    by: &str,
    meter_id: &str,
    overrides: Overrides,
) -> Result<(), IngestError> {
    let mut tx = state.db.begin_write().await?;
    let known = directory::meter_address(&mut tx, meter_id).await?.is_some();
    let current = stored::get(&mut tx, meter_id).await?.map(|set| set.overrides).unwrap_or_default();
    let events = thresholds::decide(meter_id, known, &current, overrides)?;
    if events.is_empty() {
        return Ok(());
    }
    let envelopes = envelopes(meter_id, by, events, state.now());
    commit(state, tx, &envelopes, attempt, (view(&current), view(&overrides))).await
}

fn view(o: &Overrides) -> serde_json::Value {
    json!({
        "continuousFlowHours": o.continuous_flow_hours,
        "nightFlowMl": o.night_flow_ml,
        "burstMl": o.burst_ml,
        "stuckMeterDays": o.stuck_days,
    })
}
