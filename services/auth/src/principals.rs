//! Every process follows the auth topic into its token versions and API
//! keys ([`wm_http::auth::Principals`]): the auth service owns what its
//! events mean, and every service checks tokens and keys against them.
//! Each process reports its keys' uses back on the same topic.
//!
//! A process reads the topic from its start before it serves (the versions
//! raised within a token's lifetime are all there), then follows it.
//! Read outside any consumer group, every replica sees every event.

use std::{sync::Arc, time::Duration};

use tokio_util::sync::CancellationToken;
use wm_eventlog::{
    Consumer, EventLog, EventLogError,
    envelopes::{self, decode},
};
use wm_http::auth::{
    Principals, Role,
    api_keys::{KeyGrant, KeyUse},
};
use wm_proto::{
    Envelope, Payload,
    time::{to_datetime, to_timestamp},
    topics,
    v1::{self, ApiKeyUsed},
};

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
        let Some(payload) = envelope.payload.as_ref() else { continue };
        if let Some((user_id, version)) = raised(payload) {
            principals.raise(user_id, version);
        }
        follow_key(payload, principals);
    }
    Ok(())
}

/// Learns a created or revoked API key.
fn follow_key(payload: &Payload, principals: &Principals) {
    match payload {
        Payload::ApiKeyCreated(created) => {
            let (Ok(role), Some(expires_at)) =
                (role(created.role()), created.expires_at.as_ref().and_then(to_datetime))
            else {
                tracing::warn!(key = created.key_id, "an API key event without a role or expiry: the key is refused");
                return;
            };
            let grant = KeyGrant { id: created.key_id.clone(), role, expires_at };
            principals.keys.grant(&created.key_digest, grant);
        }
        Payload::ApiKeyRevoked(revoked) => principals.keys.revoke(&revoked.key_id),
        _ => {}
    }
}

/// The role an event names.
fn role(role: v1::Role) -> Result<Role, ()> {
    match role {
        v1::Role::Admin => Ok(Role::Admin),
        v1::Role::Operator => Ok(Role::Operator),
        v1::Role::Viewer => Ok(Role::Viewer),
        v1::Role::Unspecified => Err(()),
    }
}

/// How often each process reports its keys' latest uses.
pub const USES_EVERY: Duration = Duration::from_secs(5);

/// Reports the API keys' uses in this process as `ApiKeyUsed` events every
/// [`USES_EVERY`], for the auth service's last-used times, until `stop`
/// (and once more then).
pub async fn report_uses(log: Arc<dyn EventLog>, principals: Arc<Principals>, stop: CancellationToken) {
    let mut every = tokio::time::interval(USES_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let stopping = tokio::select! {
            () = stop.cancelled() => true,
            _ = every.tick() => false,
        };
        let uses: Vec<Envelope> = principals.keys.take_uses().into_iter().map(used).collect();
        if !uses.is_empty()
            && let Err(e) = envelopes::publish(log.as_ref(), &uses).await
        {
            tracing::warn!(error = ?e, keys = uses.len(), "cannot report API key uses; their last-used times lag");
        }
        if stopping {
            return;
        }
    }
}

fn used(key_use: KeyUse) -> Envelope {
    let source_ip = key_use.source_ip.map(|ip| ip.to_string()).unwrap_or_default();
    let payload = Payload::ApiKeyUsed(ApiKeyUsed {
        key_id: key_use.key_id.clone(),
        used_at: Some(to_timestamp(key_use.at)),
        source_ip,
    });
    Envelope::new(&key_use.key_id, &key_use.key_id, payload)
}
