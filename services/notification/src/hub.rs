//! The streams open in this process, by user. A new notification wakes its
//! user's streams, which then read what they have not sent from the table:
//! so a stream never misses or repeats one, whatever order the wake-ups
//! come in, and nothing is buffered per stream but a pending wake-up. Change
//! hints ([`crate::hints`]) go to every stream, through a small broadcast
//! queue: a stream too slow to keep up gets one hint of everything instead.

use std::{
    collections::HashMap,
    sync::{Mutex, PoisonError},
};

use actix_web::web::Bytes;
use prometheus_client::metrics::gauge::Gauge;
use tokio::sync::{broadcast, mpsc};

/// The metric of the streams open in this process.
pub const OPEN_STREAMS_METRIC: &str = "wmeter_sse_streams";

/// Hints a stream may be behind by before it gets one of everything.
const HINTS_QUEUED: usize = 16;

#[derive(Debug)]
pub struct Hub {
    streams: Mutex<HashMap<String, Vec<mpsc::Sender<()>>>>,
    open: Gauge,
    hints: broadcast::Sender<Bytes>,
}

impl Default for Hub {
    fn default() -> Self {
        Self { streams: Mutex::default(), open: Gauge::default(), hints: broadcast::channel(HINTS_QUEUED).0 }
    }
}

/// One open stream's wake-ups; the stream counts as open until this is dropped.
#[derive(Debug)]
pub struct Subscription {
    wake: mpsc::Receiver<()>,
    open: Gauge,
}

impl Subscription {
    /// The next wake-up; `None` once the hub closed the stream.
    pub async fn recv(&mut self) -> Option<()> {
        self.wake.recv().await
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.open.dec();
    }
}

impl Hub {
    /// A new stream for `user_id`: it receives a wake-up for each of the
    /// user's new notifications (coalesced while one is pending).
    pub fn open(&self, user_id: &str) -> Subscription {
        let (tx, rx) = mpsc::channel(1);
        self.streams.lock().unwrap_or_else(PoisonError::into_inner).entry(user_id.to_owned()).or_default().push(tx);
        self.open.inc();
        Subscription { wake: rx, open: self.open.clone() }
    }

    /// The change hints from now on, each a whole Server-Sent Event.
    pub fn hints(&self) -> broadcast::Receiver<Bytes> {
        self.hints.subscribe()
    }

    /// Sends a change hint (a whole Server-Sent Event) to every stream.
    pub fn hint(&self, event: Bytes) {
        // No stream open: nobody to tell.
        let _ = self.hints.send(event);
    }

    /// Wakes `user_id`'s streams; forgets the closed ones.
    pub fn wake(&self, user_id: &str) {
        let mut streams = self.streams.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(user) = streams.get_mut(user_id) {
            user.retain(|tx| !matches!(tx.try_send(()), Err(mpsc::error::TrySendError::Closed(()))));
            if user.is_empty() {
                streams.remove(user_id);
            }
        }
    }

    /// Streams open now: the gauge behind [`OPEN_STREAMS_METRIC`].
    pub fn open_streams(&self) -> Gauge {
        self.open.clone()
    }

    /// Ends every stream (shutdown).
    pub fn close_all(&self) {
        self.streams.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_counts_as_open_until_its_subscription_is_dropped() {
        let hub = Hub::default();
        let first = hub.open("ann");
        let second = hub.open("bob");
        assert_eq!(hub.open_streams().get(), 2);
        drop(first);
        assert_eq!(hub.open_streams().get(), 1);
        hub.close_all();
        drop(second);
        assert_eq!(hub.open_streams().get(), 0);
    }
}
