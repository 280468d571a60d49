//! `GET /api/notifications`: the user's new notifications as Server-Sent
//! Events. Each carries its `seq` as the event id, so a client that
//! reconnects with `Last-Event-ID` gets what it missed, exactly once; a
//! `retry` of 1000 ms; a heartbeat comment every `heartbeat`. Between them,
//! change hints (`event: hint`, no id: [`crate::hints`]).
//!
//! Streams are pulled: the next notifications are read from the table only
//! when the connection takes more, a batch at a time. A slow client slows
//! its own stream and nothing is buffered for it beyond one batch; a gone
//! client is noticed when a write (at the latest a heartbeat) fails.

use std::collections::VecDeque;

use actix_web::{HttpRequest, HttpResponse, web, web::Bytes};
use futures::stream;
use tokio::sync::broadcast;
use wm_http::{ApiError, auth::Caller};
use wm_storage::Db;

use crate::{
    error::NotificationError,
    hints::Hint,
    hub::Subscription,
    state::NotificationState,
    storage::inbox::{self, Notification},
};

/// Notifications read per catch-up, at most.
const BATCH: i64 = 256;

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
    let (wake, hints) = (state.hub.open(&caller.user_id), state.hub.hints());
    let last_seq = match resume {
        Some(seq) => seq,
        None => inbox::last_seq(&state.db, &caller.user_id).await?,
    };
    let mut heartbeat = tokio::time::interval(state.heartbeat);
    heartbeat.reset();
    let cursor = Cursor {
        db: state.db.clone(),
        user_id: caller.user_id,
        last_seq,
        wake,
        hints,
        heartbeat,
        pending: VecDeque::new(),
        more: false,
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
    wake: Subscription,
    hints: broadcast::Receiver<Bytes>,
    heartbeat: tokio::time::Interval,
    pending: VecDeque<Notification>,
    /// The last catch-up filled a batch: there may be more to read.
    more: bool,
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
            if let Some(n) = self.pending.pop_front() {
                self.last_seq = n.seq;
                return Some((Ok(event(&n)), self));
            }
            if self.more {
                self.catch_up().await;
                continue;
            }
            tokio::select! {
                hint = self.hints.recv(), if self.hinting => match hint {
                    Ok(event) => return Some((Ok(event), self)),
                    Err(broadcast::error::RecvError::Lagged(_)) => return Some((Ok(Hint::everything().event()), self)),
                    Err(broadcast::error::RecvError::Closed) => self.hinting = false,
                },
                woken = self.wake.recv() => {
                    woken?;
                    self.catch_up().await;
                }
                _ = self.heartbeat.tick() => {
                    self.catch_up().await;
                    if self.pending.is_empty() {
                        return Some((Ok(Bytes::from_static(b": heartbeat\n\n")), self));
                    }
                }
            }
        }
    }

    /// Reads what was created since the last event sent.
    async fn catch_up(&mut self) {
        match inbox::after(&self.db, &self.user_id, self.last_seq, BATCH).await {
            Ok(rows) => {
                self.more = rows.len() == usize::try_from(BATCH).unwrap_or(usize::MAX);
                self.pending.extend(rows);
            }
            Err(e) => {
                self.more = false;
                tracing::warn!(error = %e, "cannot read notifications for a stream");
            }
        }
    }
}

/// One Server-Sent Event.
fn event(n: &Notification) -> Bytes {
    let data = serde_json::to_string(n).unwrap_or_default();
    Bytes::from(format!("id: {}\ndata: {data}\n\n", n.seq))
}
