//! One user's notifications, read once for all of the user's streams in this
//! process. A wake-up (or, as a safety net, every heartbeat) makes the
//! feed's reader read what it has not read yet, a batch at a time, encode
//! each notification once as a Server-Sent Event and hand the same batch to
//! every stream of the user. A stream that is not where a batch begins (it
//! resumed with `Last-Event-ID`, fell behind, or opened in between) reads
//! the table itself until it is; see [`crate::routes::stream`]. What a
//! wake-up makes the reader hand on, it hands on in a `deliver` span of the
//! trace that created the notification.

use std::{
    sync::{
        Arc,
        atomic::{AtomicI64, Ordering},
    },
    time::Duration,
};

use actix_web::web::Bytes;
use tokio::sync::{broadcast, mpsc};
use tracing::Instrument;
use wm_storage::{Db, StorageError};

use crate::storage::inbox::{self, Notification};

/// Notifications read at a time, at most.
pub const BATCH: i64 = 256;

/// Batches a stream may be behind by before it reads the table itself.
const BATCHES_QUEUED: usize = 16;

/// The reader's position before any stream told it where to start.
const UNSET: i64 = -1;

/// Notifications in `seq` order, each a whole Server-Sent Event.
#[derive(Debug, Default)]
pub struct Batch {
    /// The `seq` this batch continues from: it holds every notification
    /// after it, up to its last.
    pub after: i64,
    pub events: Vec<(i64, Bytes)>,
}

impl Batch {
    /// `rows` (in `seq` order) read after `after`.
    pub fn of(after: i64, rows: &[Notification]) -> Batch {
        Batch { after, events: rows.iter().map(|n| (n.seq, event(n))).collect() }
    }

    /// The `seq` of its last notification, or where it began when empty.
    pub fn last(&self) -> i64 {
        self.events.last().map_or(self.after, |(seq, _)| *seq)
    }
}

/// One Server-Sent Event.
fn event(n: &Notification) -> Bytes {
    let data = serde_json::to_string(n).unwrap_or_default();
    Bytes::from(format!("id: {}\ndata: {data}\n\n", n.seq))
}

/// `user_id`'s notifications after `seq`, at most a batch.
pub async fn read(db: &Db, user_id: &str, seq: i64) -> Result<Batch, StorageError> {
    Ok(Batch::of(seq, &inbox::after(db, user_id, seq, BATCH).await?))
}

/// Whether `batch` was a whole batch, so that more may follow it.
pub fn full(batch: &Batch) -> bool {
    usize::try_from(BATCH).is_ok_and(|max| batch.events.len() == max)
}

/// What the hub keeps of a user's feed; dropping it stops the reader.
#[derive(Debug)]
pub struct Feed {
    /// Wake-ups, each with the `traceparent` of what woke the reader.
    wake: mpsc::Sender<String>,
    batches: broadcast::Sender<Arc<Batch>>,
    last: Arc<AtomicI64>,
}

/// What a stream holds of its user's feed.
#[derive(Debug)]
pub struct Follower {
    pub batches: broadcast::Receiver<Arc<Batch>>,
    last: Arc<AtomicI64>,
}

impl Follower {
    /// Where the feed reads from next: the stream is behind it if its own
    /// last `seq` is lower.
    pub fn read_up_to(&self) -> i64 {
        self.last.load(Ordering::Acquire)
    }

    /// Tells a feed no stream started yet to read after `seq`.
    pub fn start(&self, seq: i64) {
        let _ = self.last.compare_exchange(UNSET, seq, Ordering::AcqRel, Ordering::Acquire);
    }
}

impl Feed {
    /// A feed of `user_id`'s notifications, with its reader running until
    /// the feed is dropped.
    pub fn spawn(db: Db, user_id: String, heartbeat: Duration) -> Feed {
        let (wake, woken) = mpsc::channel(1);
        let batches = broadcast::channel(BATCHES_QUEUED).0;
        let last = Arc::new(AtomicI64::new(UNSET));
        let reader = Reader { db, user_id, woken, batches: batches.clone(), last: last.clone(), heartbeat };
        tokio::spawn(reader.run());
        Feed { wake, batches, last }
    }

    /// Another stream of the user.
    pub fn follow(&self) -> Follower {
        Follower { batches: self.batches.subscribe(), last: self.last.clone() }
    }

    /// Makes the reader look for new notifications (coalesced while one
    /// wake-up is pending: the pending one's trace stands for both).
    pub fn wake(&self, traceparent: &str) {
        let _ = self.wake.try_send(traceparent.to_owned());
    }
}

struct Reader {
    db: Db,
    user_id: String,
    woken: mpsc::Receiver<String>,
    batches: broadcast::Sender<Arc<Batch>>,
    last: Arc<AtomicI64>,
    heartbeat: Duration,
}

impl Reader {
    async fn run(mut self) {
        let mut safety_net = tokio::time::interval(self.heartbeat);
        safety_net.reset();
        loop {
            let span = tokio::select! {
                woken = self.woken.recv() => match woken {
                    Some(traceparent) => self.delivery(&traceparent),
                    None => return,
                },
                _ = safety_net.tick() => tracing::Span::none(),
            };
            self.read_all().instrument(span).await;
        }
    }

    /// The span of a delivery woken by `traceparent`'s trace.
    fn delivery(&self, traceparent: &str) -> tracing::Span {
        let span = tracing::info_span!(
            "deliver",
            user = self.user_id,
            streams = self.batches.receiver_count(),
            notifications = tracing::field::Empty,
        );
        wm_eventlog::trace::continue_trace(&span, traceparent);
        span
    }

    /// Reads and hands on what is new, a batch at a time.
    async fn read_all(&self) {
        let mut delivered = 0;
        loop {
            let after = self.last.load(Ordering::Acquire);
            if after == UNSET {
                return;
            }
            let batch = match read(&self.db, &self.user_id, after).await {
                Ok(batch) if batch.events.is_empty() => return,
                Ok(batch) => batch,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot read notifications for the streams");
                    return;
                }
            };
            let more = full(&batch);
            delivered += batch.events.len();
            tracing::Span::current().record("notifications", delivered);
            self.last.store(batch.last(), Ordering::Release);
            // No stream left: the hub drops the feed, and this reader ends.
            let _ = self.batches.send(Arc::new(batch));
            if !more {
                return;
            }
        }
    }
}
