//! The loop that takes deliveries from the broker in batches, ingests each
//! batch, and then acknowledges its messages in the batch's order, which
//! keeps each publisher's: a broker delivers again what a crash or a stop
//! left unacknowledged, and the embedded broker acknowledges a gateway's
//! publish only then (in the same process, a batch's acknowledgements are
//! one call, no packets).

use std::time::Duration;

use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use wm_mqtt::{Deliveries, Link};

use super::{Received, accept};
use crate::state::IngestState;

/// Runs until `stop` or until the connection's channel closes.
pub async fn run(ingest: IngestState, link: Link, mut deliveries: Deliveries, batch: usize, stop: CancellationToken) {
    loop {
        let taken = tokio::select! {
            () = stop.cancelled() => return,
            taken = deliveries.batch(batch) => match taken {
                Some(taken) => taken,
                None => return,
            },
        };
        let received: Vec<Received> =
            taken.iter().map(|d| Received { topic: d.topic().to_owned(), payload: d.payload().to_vec() }).collect();
        // A batch starts a trace: its events carry it on to the projections
        // and to the notifications they cause.
        let span = tracing::info_span!("ingest", messages = received.len());
        if !keep(&ingest, &received, &stop).instrument(span).await {
            return;
        }
        for delivery in taken {
            if let Err(e) = link.ack(delivery).await {
                tracing::warn!(error = %e, "cannot acknowledge; the broker will deliver it again");
            }
        }
    }
}

/// Ingests `received`, retrying with backoff while storage fails; false
/// when stopped first (nothing acknowledged: the broker redelivers).
async fn keep(ingest: &IngestState, received: &[Received], stop: &CancellationToken) -> bool {
    let mut backoff = Duration::from_millis(100);
    loop {
        match accept(ingest, received).await {
            Ok(_) => return true,
            Err(e) => {
                tracing::warn!(error = ?e, messages = received.len(), "cannot store uplinks, retrying");
                tokio::select! {
                    () = stop.cancelled() => return false,
                    () = tokio::time::sleep(backoff) => {}
                }
                backoff = (backoff * 2).min(Duration::from_secs(10));
            }
        }
    }
}
