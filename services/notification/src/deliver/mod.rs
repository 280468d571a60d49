//! Sending alarm rules' deliveries (docs/integrations.md): the message of a
//! delivery, its two channels (a signed webhook, an email), and the sender
//! that takes due deliveries from the outbox and logs every attempt.

pub mod email;
pub mod message;
pub mod sender;
pub mod webhook;

/// What one attempt gave: the receiver's code, if it answered, and the
/// error, if it failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub ok: bool,
    pub status_code: Option<u16>,
    pub error: Option<String>,
}

impl Outcome {
    pub fn failed(status_code: Option<u16>, error: impl Into<String>) -> Self {
        Self { ok: false, status_code, error: Some(error.into()) }
    }
}
