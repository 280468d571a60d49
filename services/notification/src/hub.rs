//! The streams open in this process, by user. A new notification wakes its
//! user's streams, which then read what they have not sent from the table:
//! so a stream never misses or repeats one, whatever order the wake-ups
//! come in, and nothing is buffered per stream but a pending wake-up.

use std::{
    collections::HashMap,
    sync::{Mutex, PoisonError},
};

use tokio::sync::mpsc;

#[derive(Debug, Default)]
pub struct Hub {
    streams: Mutex<HashMap<String, Vec<mpsc::Sender<()>>>>,
}

impl Hub {
    /// A new stream for `user_id`: it receives a wake-up for each of the
    /// user's new notifications (coalesced while one is pending).
    pub fn open(&self, user_id: &str) -> mpsc::Receiver<()> {
        let (tx, rx) = mpsc::channel(1);
        self.streams.lock().unwrap_or_else(PoisonError::into_inner).entry(user_id.to_owned()).or_default().push(tx);
        rx
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

    /// Streams open now.
    pub fn open_streams(&self) -> usize {
        self.streams.lock().unwrap_or_else(PoisonError::into_inner).values().map(Vec::len).sum()
    }

    /// Ends every stream (shutdown).
    pub fn close_all(&self) {
        self.streams.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }
}
