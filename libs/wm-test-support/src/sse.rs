//! A client's end of a Server-Sent Events stream: the notification
//! stream, read event by event.

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

    /// The next event (skipping comments and the retry line), or `None`
    /// when none comes within `wait`.
    pub async fn next(&mut self, wait: Duration) -> Option<Event> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let field =
                    |name: &str| block.lines().find_map(|l| l.strip_prefix(name)).map(str::trim).map(str::to_owned);
                if let (Some(id), Some(data)) = (field("id:"), field("data:")) {
                    return Some(Event { id: id.parse().unwrap(), data: serde_json::from_str(&data).unwrap() });
                }
                continue;
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
