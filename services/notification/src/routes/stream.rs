//! `GET /api/notifications`: the user's new notifications as Server-Sent
//! Events. Each carries its `seq` as the event id, so a client that
//! reconnects with `Last-Event-ID` gets what it missed, exactly once; a
//! `retry` of 1000 ms; a heartbeat comment every `heartbeat`. Between them,
//! change hints (`event: hint`, no id: [`crate::hints`]).
//!
//! A stream follows its user's feed ([`crate::feed`]): the rows one read
//! found, encoded once, for every stream of the user. It reads the table
//! itself only where the feed cannot serve it: to resume after
//! `Last-Event-ID`, when it fell more than the feed's queue behind, or when
//! a batch begins after its last event. So a slow client slows its own
//! stream only, and nothing is buffered for it beyond the feed's queue; a
//! gone client is noticed when a write (at the latest a heartbeat) fails.

use std::collections::VecDeque;

use actix_web::{HttpRequest, HttpResponse, web, web::Bytes};
use futures::stream;
use tokio::sync::broadcast;
use wm_http::{ApiError, auth::Caller};
use wm_storage::Db;

use crate::{
    error::NotificationError,
    feed::{self, Batch},
    hints::Hint,
    hub::Subscription,
    state::NotificationState,
    storage::inbox::{self, Notification},
};

/// The stream of the caller's new notifications.
#[utoipa::path(get, path = "/api/notifications", tag = "notifications",
    params(("Last-Event-ID" = Option<i64>, Header, nullable = false, minimum = 0, description = "The last event id received: resume after it")),
    responses(
        (status = 200, description = "text/event-stream of notifications", content_type = "text/event-stream", body = Notification),
        (status = 401, description = "No valid access token", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn get(
    caller: Caller,
    req: HttpRequest,
    state: web::Data<NotificationState>,
) -> Result<HttpResponse, ApiError> {
    let resume = match req.headers().get("last-event-id") {
        None => None,
        Some(value) => {
            Some(value.to_str().ok().and_then(|v| v.trim().parse::<i64>().ok()).filter(|seq| *seq >= 0).ok_or_else(
                || NotificationError::BadLastEventId(String::from_utf8_lossy(value.as_bytes()).into_owned()),
            )?)
        }
    };
    // Listen first, then read: nothing created in between is missed.
    let (subscription, hints) = (state.hub.open(&caller.user_id), state.hub.hints());
    let last_seq = match resume {
        Some(seq) => seq,
        None => inbox::last_seq(&state.db, &caller.user_id).await?,
    };
    subscription.feed.start(last_seq);
    let mut heartbeat = tokio::time::interval(state.heartbeat);
    heartbeat.reset();
    let cursor = Cursor {
        db: state.db.clone(),
        user_id: caller.user_id,
        last_seq,
        subscription,
        hints,
        heartbeat,
        pending: VecDeque::new(),
        behind: resume.is_some(),
        greeted: false,
        hinting: true,
    };
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header(("Cache-Control", "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(stream::unfold(cursor, Cursor::next)))
}

struct Cursor {
    db: Db,
    user_id: String,
    last_seq: i64,
    subscription: Subscription,
    hints: broadcast::Receiver<Bytes>,
    heartbeat: tokio::time::Interval,
    /// Events to send, each with its `seq`.
    pending: VecDeque<(i64, Bytes)>,
    /// The feed cannot serve the stream yet: it reads the table itself.
    behind: bool,
    greeted: bool,
    /// The hub still sends hints.
    hinting: bool,
}

impl Cursor {
    /// The next chunk of the stream, or its end.
    async fn next(mut self) -> Option<(Result<Bytes, actix_web::Error>, Self)> {
        if !self.greeted {
            self.greeted = true;
            return Some((Ok(Bytes::from_static(b"retry: 1000\n\n")), self));
        }
        loop {
            if let Some((seq, event)) = self.pending.pop_front() {
                self.last_seq = seq;
                return Some((Ok(event), self));
            }
            if self.behind {
                self.catch_up().await;
                continue;
            }
            tokio::select! {
                hint = self.hints.recv(), if self.hinting => match hint {
                    Ok(event) => return Some((Ok(event), self)),
                    Err(broadcast::error::RecvError::Lagged(_)) => return Some((Ok(Hint::everything().event()), self)),
                    Err(broadcast::error::RecvError::Closed) => self.hinting = false,
                },
                batch = self.subscription.feed.batches.recv() => match batch {
                    Ok(batch) => self.take(&batch),
                    Err(broadcast::error::RecvError::Lagged(_)) => self.behind = true,
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
                _ = self.heartbeat.tick() => {
                    if self.last_seq >= self.subscription.feed.read_up_to() {
                        return Some((Ok(Bytes::from_static(b": heartbeat\n\n")), self));
                    }
                    // The feed read past this stream without it (it opened
                    // while the feed read): catch up.
                    self.behind = true;
                }
            }
        }
    }

    /// Queues what `batch` holds that this stream has not sent; when the
    /// batch begins after it, reads the table instead.
    fn take(&mut self, batch: &Batch) {
        if batch.after > self.last_seq {
            self.behind = true;
            return;
        }
        self.pending.extend(batch.events.iter().filter(|(seq, _)| *seq > self.last_seq).cloned());
    }

    /// Reads a batch of what was created since the last event sent; it is
    /// caught up once a read comes back short.
    async fn catch_up(&mut self) {
        match feed::read(&self.db, &self.user_id, self.last_seq).await {
            Ok(batch) => {
                self.behind = feed::full(&batch);
                self.pending.extend(batch.events);
            }
            Err(e) => {
                self.behind = false;
                tracing::warn!(error = %e, "cannot read notifications for a stream");
            }
        }
    }
}
