//! A client's end of a Server-Sent Events stream: the notification
//! stream, read notification by notification, or hint by hint.

use std::time::Duration;

use futures::StreamExt;
use serde_json::Value;
use wm_http::auth::Role;

use crate::target::Target;

/// An open event stream, read event by event.
#[allow(missing_debug_implementations)] // a byte stream
pub struct Events {
    body: futures::stream::BoxStream<'static, reqwest::Result<bytes::Bytes>>,
    buffer: String,
}

/// One Server-Sent Event: its id and JSON data.
#[derive(Debug)]
pub struct Event {
    pub id: i64,
    pub data: Value,
}

impl Events {
    /// Opens the stream as `user_id`, resuming after `last` when given.
    pub async fn open(app: &Target, user_id: &str, last: Option<i64>) -> Events {
        let mut request = app
            .client
            .get(format!("{}/api/notifications", app.url))
            .bearer_auth(app.token_for(user_id, Role::Operator));
        if let Some(last) = last {
            request = request.header("Last-Event-ID", last.to_string());
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        Events { body: response.bytes_stream().boxed(), buffer: String::new() }
    }

    /// The next notification (skipping comments, the retry line and
    /// hints), or `None` when none comes within `wait`.
    pub async fn next(&mut self, wait: Duration) -> Option<Event> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let block = self.block(deadline).await?;
            if let (Some(id), Some(data)) = (field(&block, "id:"), field(&block, "data:")) {
                return Some(Event { id: id.parse().unwrap(), data: serde_json::from_str(&data).unwrap() });
            }
        }
    }

    /// The next change hint's data (skipping everything else), or `None`
    /// when none comes within `wait`.
    pub async fn hint(&mut self, wait: Duration) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let block = self.block(deadline).await?;
            if let (Some("hint"), Some(data), None) =
                (field(&block, "event:").as_deref(), field(&block, "data:"), field(&block, "id:"))
            {
                return Some(serde_json::from_str(&data).unwrap());
            }
        }
    }

    /// The next block of lines, up to its blank line.
    async fn block(&mut self, deadline: tokio::time::Instant) -> Option<String> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                return Some(self.buffer.drain(..end + 2).collect());
            }
            let chunk = tokio::time::timeout_at(deadline, self.body.next()).await.ok()??;
            self.buffer.push_str(&String::from_utf8_lossy(&chunk.unwrap()));
        }
    }

    /// The raw text received so far and not yet read as events.
    pub async fn raw_within(&mut self, wait: Duration) -> String {
        let _ = tokio::time::timeout(wait, async {
            while let Some(Ok(chunk)) = self.body.next().await {
                self.buffer.push_str(&String::from_utf8_lossy(&chunk));
            }
        })
        .await;
        std::mem::take(&mut self.buffer)
    }
}

/// Whether a stream's raw text holds a notification: an event with an id
/// (change hints carry none).
pub fn notified(raw: &str) -> bool {
    raw.lines().any(|line| line.starts_with("id:"))
}

/// The value of the block's first line starting with `name`.
fn field(block: &str, name: &str) -> Option<String> {
    block.lines().find_map(|l| l.strip_prefix(name)).map(str::trim).map(str::to_owned)
}
