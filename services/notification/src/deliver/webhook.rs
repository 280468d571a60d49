//! A webhook: the JSON body POSTed to the rule's URL, signed so that the
//! receiver can tell it comes from w-meter and was not replayed
//! (docs/integrations.md, "Verifying a webhook"):
//!
//! - `X-WMeter-Timestamp`: the Unix time of the attempt, in seconds;
//! - `X-WMeter-Signature`: `sha256=` and the hex HMAC-SHA256, keyed with
//!   the rule's secret, of the timestamp, a `.`, and the body's bytes;
//! - `X-WMeter-Delivery`: the delivery's id, the same on every retry.

use std::time::Duration;

use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::Outcome;

pub const TIMESTAMP_HEADER: &str = "X-WMeter-Timestamp";
pub const SIGNATURE_HEADER: &str = "X-WMeter-Signature";
pub const DELIVERY_HEADER: &str = "X-WMeter-Delivery";

/// `sha256=<hex>` of `timestamp.body` keyed with `secret`.
pub fn signature(secret: &str, timestamp: i64, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    let hex: String = mac.finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256={hex}")
}

/// Sends webhooks with one HTTP client (TLS with the system's roots).
#[derive(Clone, Debug)]
pub struct Webhooks {
    client: reqwest::Client,
}

impl Webhooks {
    pub fn new(timeout: Duration) -> Result<Self, reqwest::Error> {
        let client = wm_http::client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("w-meter/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(Self { client })
    }

    /// POSTs `body` to `url`, signed with `secret` at `timestamp`. Any 2xx
    /// is a success; anything else, or no answer, a failure to retry.
    pub async fn send(&self, url: &str, secret: &str, delivery_id: &str, timestamp: i64, body: Vec<u8>) -> Outcome {
        let signed = signature(secret, timestamp, &body);
        let sent = self
            .client
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(TIMESTAMP_HEADER, timestamp.to_string())
            .header(SIGNATURE_HEADER, signed)
            .header(DELIVERY_HEADER, delivery_id)
            .body(body)
            .send()
            .await;
        match sent {
            Ok(response) if response.status().is_success() => {
                Outcome { ok: true, status_code: Some(response.status().as_u16()), error: None }
            }
            Ok(response) => {
                let status = response.status();
                Outcome::failed(Some(status.as_u16()), format!("the receiver answered {status}"))
            }
            Err(e) if e.is_timeout() => Outcome::failed(None, "the receiver did not answer in time"),
            Err(e) if e.is_connect() => Outcome::failed(None, format!("cannot connect to the receiver: {}", root(&e))),
            Err(e) => Outcome::failed(None, format!("the request failed: {}", root(&e))),
        }
    }
}

/// The innermost cause of an error, which says what actually went wrong.
fn root(error: &dyn std::error::Error) -> String {
    let mut cause = error;
    while let Some(source) = cause.source() {
        cause = source;
    }
    cause.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_the_documented_hmac_of_timestamp_dot_body() {
        // Computed independently: printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac 'a-very-secret-key'
        assert_eq!(
            signature("a-very-secret-key", 1_700_000_000, br#"{"a":1}"#),
            "sha256=609a10a2616842d85d34c4f4286fecfcbdd05963eeb314498a825c4a472a9b9f"
        );
    }
}
