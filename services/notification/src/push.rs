//! Wakes this process's streams from the notifications topic, so that every
//! replica delivers to its own clients whichever replica created the
//! notification. A group of its own, from the end of the log. A wake-up
//! missed (while the group joins) costs latency, not a notification:
//! streams also look for new rows with every heartbeat.

use std::time::Duration;

use tokio_util::sync::CancellationToken;
use wm_eventlog::{ConsumerOptions, EventLog, StartFrom, envelopes::decode};
use wm_proto::{Payload, topics};

use crate::state::NotificationState;

pub async fn run(state: NotificationState, log: std::sync::Arc<dyn EventLog>, stop: CancellationToken) {
    let group = format!("notification.push.{}", uuid::Uuid::now_v7().simple());
    let options = ConsumerOptions::default().start_from(StartFrom::Latest);
    let mut consumer = loop {
        match log.subscribe(&group, &[topics::NOTIFICATIONS], options.clone()).await {
            Ok(consumer) => break consumer,
            Err(e) => {
                tracing::warn!(error = ?e, "cannot follow the notifications yet");
                tokio::select! {
                    () = stop.cancelled() => return,
                    () = tokio::time::sleep(Duration::from_secs(1)) => {}
                }
            }
        }
    };
    loop {
        let records = tokio::select! {
            () = stop.cancelled() => return,
            polled = consumer.poll(500, Duration::from_secs(1)) => polled,
        };
        let records = match records {
            Ok(records) => records,
            Err(e) => {
                tracing::warn!(error = ?e, "cannot read the notifications, retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        for envelope in records.iter().filter_map(decode) {
            if let Some(Payload::NotificationCreated(created)) = &envelope.payload {
                state.hub.wake(&created.user_id, &envelope.correlation_id);
            }
        }
    }
}
