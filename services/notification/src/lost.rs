//! Gateways going lost: every few seconds, the gateways not heard for the
//! lost period are declared lost once, and notified.

use std::time::Duration;

use tokio_util::sync::CancellationToken;
use wm_storage::StorageError;

use crate::{
    rules,
    state::{NotificationState, stage},
    storage::directory,
};

/// How often the lost gateways are looked for.
const EVERY: Duration = Duration::from_secs(5);

pub async fn run(state: NotificationState, stop: CancellationToken) {
    loop {
        if let Err(e) = check(&state).await {
            tracing::warn!(error = %e, "cannot look for lost gateways yet");
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(EVERY) => {}
        }
    }
}

/// Declares and notifies the gateways lost as of now.
pub async fn check(state: &NotificationState) -> Result<usize, StorageError> {
    let now = state.clock.now();
    let lost_after = chrono::Duration::from_std(state.gateway_lost_after).unwrap_or(chrono::Duration::MAX);
    let before = (now - lost_after).timestamp_micros();
    let mut tx = state.db.begin_write().await?;
    let lost = directory::newly_lost(&mut tx, before).await?;
    let mut created = Vec::new();
    for (gateway, lastseen) in &lost {
        // Named by the sighting it follows: declared twice, notified once.
        let cause = format!("lost/{gateway}/{lastseen}");
        created.extend(rules::notify(&mut tx, &cause, &rules::gateway(gateway, true), now).await?);
    }
    stage(&state.relay, &mut tx, &created).await?;
    tx.commit().await?;
    state.relay.wake();
    Ok(lost.len())
}
