//! Every process follows the auth topic into its token versions
//! ([`wm_http::auth::Principals`]): the auth service owns what its events
//! mean, and every service checks tokens against them.
//!
//! A process reads the topic from its start before it serves (the versions
//! raised within a token's lifetime are all there), then follows it.
//! Read outside any consumer group, every replica sees every event.

use std::{sync::Arc, time::Duration};

use tokio_util::sync::CancellationToken;
use wm_eventlog::{Consumer, EventLog, EventLogError, envelopes::decode};
use wm_http::auth::Principals;
use wm_proto::{Payload, topics};

/// How long a start waits for the topic to be read to its end. Past it,
/// the process serves, and refuses tokens with 503 until it has.
pub const CATCH_UP: Duration = Duration::from_secs(20);
/// How long one poll waits for new events.
const POLL: Duration = Duration::from_millis(200);

/// The user and the token version an auth event raises them to, if it
/// raises one.
pub fn raised(payload: &Payload) -> Option<(&str, u64)> {
    match payload {
        Payload::UserDisabled(e) => Some((&e.user_id, e.token_version)),
        Payload::UserRoleChanged(e) => Some((&e.user_id, e.token_version)),
        Payload::UserEnabled(e) => Some((&e.user_id, e.token_version)),
        Payload::UserSessionsRevoked(e) => Some((&e.user_id, e.token_version)),
        Payload::UserPasswordSet(e) => Some((&e.user_id, e.token_version)),
        _ => None,
    }
}

/// Opens the auth topic and reads it to its end (or for [`CATCH_UP`]) into
/// `principals`; returns the reader, to [`follow`] on.
pub async fn catch_up(log: &dyn EventLog, principals: &Principals) -> Result<Box<dyn Consumer>, EventLogError> {
    principals.following();
    log.ensure_topics(&[topics::AUTH]).await?;
    let mut consumer = log.replay(&[topics::AUTH]).await?;
    let deadline = tokio::time::Instant::now() + CATCH_UP;
    while !consumer.caught_up() && tokio::time::Instant::now() < deadline {
        read(consumer.as_mut(), principals).await?;
    }
    if consumer.caught_up() {
        principals.caught_up();
    } else {
        tracing::warn!("the auth topic was not read to its end in time: tokens wait until it is");
    }
    Ok(consumer)
}

/// Follows the auth topic into `principals` until `stop`.
pub async fn follow(mut consumer: Box<dyn Consumer>, principals: Arc<Principals>, stop: CancellationToken) {
    while !stop.is_cancelled() {
        tokio::select! {
            () = stop.cancelled() => return,
            read = read(consumer.as_mut(), &principals) => if let Err(e) = read {
                tracing::warn!(error = ?e, "cannot read the auth topic, retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
            },
        }
        if !principals.is_caught_up() && consumer.caught_up() {
            principals.caught_up();
            tracing::info!("the auth topic is read to its end: tokens are checked again");
        }
    }
}

async fn read(consumer: &mut dyn Consumer, principals: &Principals) -> Result<(), EventLogError> {
    for envelope in consumer.poll(1000, POLL).await?.iter().filter_map(decode) {
        if let Some((user_id, version)) = envelope.payload.as_ref().and_then(raised) {
            principals.raise(user_id, version);
        }
    }
    Ok(())
}
