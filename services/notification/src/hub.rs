//! The streams open in this process, by user. Each user with a stream open
//! has one [`Feed`]: a new notification wakes it, it reads the table once
//! and hands the same rows to every stream of the user, so a stream never
//! misses or repeats one, whatever order the wake-ups come in, and a
//! thousand streams of one user cost one read. Change hints
//! ([`crate::hints`]) go to every stream, through a small broadcast queue: a
//! stream too slow to keep up gets one hint of everything instead.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use actix_web::web::Bytes;
use prometheus_client::metrics::gauge::Gauge;
use tokio::sync::broadcast;
use wm_storage::Db;

use crate::feed::{Feed, Follower};

/// The metric of the streams open in this process.
pub const OPEN_STREAMS_METRIC: &str = "wmeter_sse_streams";

/// Hints a stream may be behind by before it gets one of everything.
const HINTS_QUEUED: usize = 16;

#[derive(Debug)]
pub struct Hub {
    db: Db,
    /// How often a feed looks for notifications no wake-up announced.
    heartbeat: Duration,
    feeds: Arc<Mutex<Feeds>>,
    open: Gauge,
    hints: broadcast::Sender<Bytes>,
}

#[derive(Debug, Default)]
struct Feeds {
    by_user: HashMap<String, Followed>,
    /// Tells a feed from the one a user had before `close_all`.
    next_id: u64,
}

#[derive(Debug)]
struct Followed {
    id: u64,
    feed: Feed,
    streams: usize,
}

/// One open stream's place in its user's feed; the stream counts as open
/// until this is dropped.
#[derive(Debug)]
pub struct Subscription {
    pub feed: Follower,
    user_id: String,
    feed_id: u64,
    feeds: Arc<Mutex<Feeds>>,
    open: Gauge,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.open.dec();
        let mut feeds = self.feeds.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(followed) = feeds.by_user.get_mut(&self.user_id).filter(|f| f.id == self.feed_id) {
            followed.streams -= 1;
            if followed.streams == 0 {
                feeds.by_user.remove(&self.user_id);
            }
        }
    }
}

impl Hub {
    pub fn new(db: Db, heartbeat: Duration) -> Self {
        Self { db, heartbeat, feeds: Arc::default(), open: Gauge::default(), hints: broadcast::channel(HINTS_QUEUED).0 }
    }

    /// A new stream for `user_id`: it follows the user's feed, which starts
    /// with the first stream. Call within the runtime.
    pub fn open(&self, user_id: &str) -> Subscription {
        let mut feeds = self.feeds.lock().unwrap_or_else(PoisonError::into_inner);
        let Feeds { by_user, next_id } = &mut *feeds;
        let followed = by_user.entry(user_id.to_owned()).or_insert_with(|| {
            *next_id += 1;
            Followed {
                id: *next_id,
                feed: Feed::spawn(self.db.clone(), user_id.to_owned(), self.heartbeat),
                streams: 0,
            }
        });
        followed.streams += 1;
        self.open.inc();
        Subscription {
            feed: followed.feed.follow(),
            user_id: user_id.to_owned(),
            feed_id: followed.id,
            feeds: self.feeds.clone(),
            open: self.open.clone(),
        }
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

    /// Wakes `user_id`'s feed, if a stream of the user is open here. The
    /// feed delivers in a span under `traceparent` (the notification's
    /// trace; empty for none).
    pub fn wake(&self, user_id: &str, traceparent: &str) {
        if let Some(followed) = self.feeds.lock().unwrap_or_else(PoisonError::into_inner).by_user.get(user_id) {
            followed.feed.wake(traceparent);
        }
    }

    /// Streams open now: the gauge behind [`OPEN_STREAMS_METRIC`].
    pub fn open_streams(&self) -> Gauge {
        self.open.clone()
    }

    /// Ends every stream (shutdown): their feeds stop.
    pub fn close_all(&self) {
        self.feeds.lock().unwrap_or_else(PoisonError::into_inner).by_user.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_stream_counts_as_open_until_its_subscription_is_dropped() {
        let db = Db::Sqlite(sqlx::SqlitePool::connect_lazy("sqlite::memory:").unwrap());
        let hub = Hub::new(db, Duration::from_secs(1));
        let first = hub.open("ann");
        let second = hub.open("bob");
        let third = hub.open("bob");
        assert_eq!(hub.open_streams().get(), 3);
        drop(first);
        assert_eq!(hub.open_streams().get(), 2);
        assert_eq!(hub.feeds.lock().unwrap().by_user.len(), 1, "ann's feed stopped with her last stream");
        hub.close_all();
        let again = hub.open("bob");
        drop((second, third));
        assert_eq!(hub.feeds.lock().unwrap().by_user["bob"].streams, 1, "streams closed before count in no new feed");
        drop(again);
        assert_eq!(hub.open_streams().get(), 0);
        assert!(hub.feeds.lock().unwrap().by_user.is_empty());
    }
}
