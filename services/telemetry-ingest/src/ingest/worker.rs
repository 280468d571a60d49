//! The loop that takes deliveries from the broker in batches, ingests each
//! batch, and then acknowledges its messages in the order received; from the
//! embedded broker, the client acknowledges them as it reads them ([`Acks`]).

use std::time::Duration;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::{Ingest, Received};
use crate::mqtt::link::{Delivery, Link};

/// When messages are acknowledged to the broker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acks {
    /// Once their batch is committed: a broker that keeps sessions
    /// (Mosquitto with a persistent session) delivers again what a crash or
    /// a stop left uncommitted.
    AfterCommit,
    /// As the client reads them. The embedded broker keeps messages in this
    /// process's memory only, so whatever a crash or stop leaves uncommitted
    /// is lost with it whether acknowledged or not: a later acknowledgement
    /// would protect nothing, and would cap each batch at rumqttd's fixed
    /// window of 100 unacknowledged messages. A failing commit is retried
    /// in-process until it succeeds or the process stops.
    OnReceipt,
}

/// Runs until `stop` or until the connection's channel closes.
pub async fn run(
    ingest: Ingest,
    link: Link,
    mut deliveries: mpsc::Receiver<Delivery>,
    batch: usize,
    acks: Acks,
    stop: CancellationToken,
) {
    loop {
        let first = tokio::select! {
            () = stop.cancelled() => return,
            first = deliveries.recv() => match first {
                Some(first) => first,
                None => return,
            },
        };
        let mut taken = vec![first];
        while taken.len() < batch {
            match deliveries.try_recv() {
                Ok(delivery) => taken.push(delivery),
                Err(_) => break,
            }
        }
        let received: Vec<Received> = taken
            .iter()
            .map(|d| Received { topic: d.publish.topic.clone(), payload: d.publish.payload.to_vec() })
            .collect();
        if !keep(&ingest, &received, &stop).await {
            return;
        }
        if acks == Acks::AfterCommit {
            for delivery in &taken {
                if let Err(e) = link.ack(delivery).await {
                    tracing::warn!(error = %e, "cannot acknowledge; the broker will deliver it again");
                }
            }
        }
    }
}

/// Ingests `received`, retrying with backoff while storage fails; false
/// when stopped first (nothing acknowledged: the broker redelivers).
async fn keep(ingest: &Ingest, received: &[Received], stop: &CancellationToken) -> bool {
    let mut backoff = Duration::from_millis(100);
    loop {
        match ingest.accept(received).await {
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
