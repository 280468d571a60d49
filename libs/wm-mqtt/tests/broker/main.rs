//! The embedded broker as MQTT clients meet it, over TCP; `in_process`: as
//! ingest meets it in the same process.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking

use std::{
    collections::HashMap,
    net::SocketAddr,
    sync::{Arc, Mutex},
    time::Duration,
};

use async_trait::async_trait;
use rumqttc::{
    AsyncClient, ConnectReturnCode, ConnectionError, Event, EventLoop, LastWill, MqttOptions, Packet, QoS,
    SubscribeReasonCode,
};

use wm_mqtt::{Access, Attempt, Authenticator, Durable, EmbeddedBroker, Refusal};

mod in_process;

const QUIET: Duration = Duration::from_millis(300);

/// Logins by username: the password and what it may do; every refusal is
/// kept as `identity action`.
#[derive(Debug, Default)]
struct Logins {
    logins: HashMap<String, (String, Access)>,
    refused: Mutex<Vec<String>>,
}

#[async_trait]
impl Authenticator for Logins {
    async fn authenticate(&self, attempt: &Attempt<'_>) -> Option<Access> {
        let (password, access) = self.logins.get(attempt.username?)?;
        (Some(password.as_str()) == attempt.password).then(|| access.clone())
    }

    fn refused(&self, identity: &str, _peer: SocketAddr, refusal: Refusal<'_>) {
        self.refused.lock().unwrap().push(format!("{identity} {}", refusal.action()));
    }
}

/// A broker with [`logins`].
async fn broker_with_logins() -> (EmbeddedBroker, Arc<Logins>) {
    let logins = logins();
    (broker_holding(logins.clone(), 1_000).await, logins)
}

/// `svc` and `gw` may do anything; `gw-a` only as client `a`, publishing
/// under `up/a/` and subscribing to `down/a`.
fn logins() -> Arc<Logins> {
    let gateway_a = Access {
        identity: "gw-a".into(),
        client_id: Some("a".into()),
        publish: Some(vec!["up/a/+".into()]),
        publish_denied: Vec::new(),
        subscribe: Some(vec!["down/a".into()]),
    };
    Arc::new(Logins {
        logins: HashMap::from([
            ("svc".to_owned(), ("svc-pw".to_owned(), Access::full("svc"))),
            ("gw".to_owned(), ("gw-pw".to_owned(), Access::full("gw"))),
            ("gw-a".to_owned(), ("a-pw".to_owned(), gateway_a)),
        ]),
        refused: Mutex::default(),
    })
}

/// A broker whose durable session, `ingest` of `svc`, has at most `held`
/// publishes waiting for it from all publishers together.
async fn broker_holding(logins: Arc<Logins>, held: usize) -> EmbeddedBroker {
    let durable =
        Durable { client_id: "ingest".into(), identity: "svc".into(), filter: "up/#".into(), window: 10, held };
    EmbeddedBroker::start("127.0.0.1:0".parse().unwrap(), None, logins, durable).await.unwrap()
}

async fn broker() -> EmbeddedBroker {
    broker_with_logins().await.0
}

fn connack(event: Event) -> Option<ConnectReturnCode> {
    match event {
        Event::Incoming(Packet::ConnAck(ack)) => Some(ack.code),
        _ => None,
    }
}

fn options(broker: &EmbeddedBroker, client_id: &str, login: (&str, &str)) -> MqttOptions {
    let mut options = MqttOptions::new(client_id, "127.0.0.1", broker.addr().port());
    options.set_credentials(login.0, login.1).set_keep_alive(Duration::from_secs(5));
    options
}

/// Polls until an event `pick` takes, or None after `within`.
async fn next<T>(events: &mut EventLoop, within: Duration, mut pick: impl FnMut(Event) -> Option<T>) -> Option<T> {
    tokio::time::timeout(within, async {
        loop {
            if let Some(found) = pick(events.poll().await.unwrap()) {
                return found;
            }
        }
    })
    .await
    .ok()
}

fn puback(event: Event) -> Option<u16> {
    match event {
        Event::Incoming(Packet::PubAck(ack)) => Some(ack.pkid),
        _ => None,
    }
}

fn publish(event: Event) -> Option<rumqttc::Publish> {
    match event {
        Event::Incoming(Packet::Publish(publish)) => Some(publish),
        _ => None,
    }
}

#[tokio::test]
async fn a_publish_is_acknowledged_only_once_ingest_has_acknowledged_it() {
    let broker = broker().await;
    let (gateway, mut gateway_events) = AsyncClient::new(options(&broker, "gw-1", ("gw", "gw-pw")), 10);
    gateway.publish("up/gw-1/reading", QoS::AtLeastOnce, false, "r1").await.unwrap();
    assert!(next(&mut gateway_events, QUIET, puback).await.is_none(), "held while ingest has not connected yet");

    let mut ingest_options = options(&broker, "ingest", ("svc", "svc-pw"));
    ingest_options.set_clean_session(false).set_manual_acks(true);
    let (ingest, mut ingest_events) = AsyncClient::new(ingest_options, 10);
    // Ingest's subscription exists before it first connects.
    let delivered = next(&mut ingest_events, Duration::from_secs(5), publish).await.expect("delivered to ingest");
    assert_eq!(&delivered.payload[..], b"r1");
    assert!(next(&mut gateway_events, QUIET, puback).await.is_none(), "held while ingest has not acknowledged");

    ingest.ack(&delivered).await.unwrap();
    let acked = tokio::spawn(async move { next(&mut ingest_events, Duration::from_secs(5), |_| None::<()>).await });
    assert!(next(&mut gateway_events, Duration::from_secs(5), puback).await.is_some(), "acknowledged after ingest");
    acked.abort();
}

#[tokio::test]
async fn a_message_ingest_did_not_acknowledge_comes_again_when_it_reconnects() {
    let broker = broker().await;
    let mut ingest_options = options(&broker, "ingest", ("svc", "svc-pw"));
    ingest_options.set_clean_session(false).set_manual_acks(true);
    let (_ingest, mut ingest_events) = AsyncClient::new(ingest_options.clone(), 10);
    next(&mut ingest_events, Duration::from_secs(5), |e| {
        matches!(e, Event::Incoming(Packet::ConnAck(_))).then_some(())
    })
    .await
    .unwrap();
    let (gateway, mut gateway_events) = AsyncClient::new(options(&broker, "gw-1", ("gw", "gw-pw")), 10);
    gateway.publish("up/gw-1/reading", QoS::AtLeastOnce, false, "r1").await.unwrap();
    let sent = |e| matches!(e, Event::Outgoing(rumqttc::Outgoing::Publish(_))).then_some(());
    next(&mut gateway_events, Duration::from_secs(5), sent).await.expect("sent");
    next(&mut ingest_events, Duration::from_secs(5), publish).await.expect("delivered");
    drop(ingest_events); // the connection drops without an acknowledgement

    let (ingest, mut ingest_events) = AsyncClient::new(ingest_options, 10);
    let again = next(&mut ingest_events, Duration::from_secs(5), publish).await.expect("delivered again");
    assert!(again.dup);
    assert!(next(&mut gateway_events, QUIET, puback).await.is_none());
    ingest.ack(&again).await.unwrap();
    let acked = tokio::spawn(async move { next(&mut ingest_events, Duration::from_secs(5), |_| None::<()>).await });
    assert!(next(&mut gateway_events, Duration::from_secs(5), puback).await.is_some());
    acked.abort();
}

#[tokio::test]
async fn logins_and_ingest_s_client_id_are_checked() {
    let broker = broker().await;
    let refused = |options| async move {
        let (_client, mut events) = AsyncClient::new(options, 10);
        match events.poll().await {
            Err(ConnectionError::ConnectionRefused(code)) => code,
            other => panic!("not refused: {other:?}"),
        }
    };
    assert_eq!(refused(options(&broker, "gw-1", ("gw", "wrong"))).await, ConnectReturnCode::BadUserNamePassword);
    assert_eq!(refused(options(&broker, "gw-1", ("nobody", "gw-pw"))).await, ConnectReturnCode::BadUserNamePassword);
    assert_eq!(refused(options(&broker, "ingest", ("gw", "gw-pw"))).await, ConnectReturnCode::BadClientId);
}

#[tokio::test]
async fn a_lost_client_s_will_is_published_and_retained() {
    let broker = broker().await;
    let mut gateway_options = options(&broker, "gw-1", ("gw", "gw-pw"));
    gateway_options.set_last_will(LastWill::new("up/gw-1/status", "offline", QoS::AtLeastOnce, true));
    let (_gateway, mut gateway_events) = AsyncClient::new(gateway_options, 10);
    next(&mut gateway_events, Duration::from_secs(5), |e| {
        matches!(e, Event::Incoming(Packet::ConnAck(_))).then_some(())
    })
    .await
    .unwrap();
    drop(gateway_events); // gone without a DISCONNECT

    let (watcher, mut watcher_events) = AsyncClient::new(options(&broker, "watcher", ("gw", "gw-pw")), 10);
    tokio::time::sleep(QUIET).await;
    watcher.subscribe("up/+/status", QoS::AtLeastOnce).await.unwrap();
    let will = next(&mut watcher_events, Duration::from_secs(5), publish).await.expect("the retained will");
    assert_eq!((will.topic.as_str(), &will.payload[..], will.retain), ("up/gw-1/status", &b"offline"[..], true));
}

#[tokio::test]
async fn a_second_connection_takes_the_client_id_over() {
    let broker = broker().await;
    let (_first, mut first_events) = AsyncClient::new(options(&broker, "gw-1", ("gw", "gw-pw")), 10);
    next(&mut first_events, Duration::from_secs(5), |e| matches!(e, Event::Incoming(Packet::ConnAck(_))).then_some(()))
        .await
        .unwrap();
    let (second, mut second_events) = AsyncClient::new(options(&broker, "gw-1", ("gw", "gw-pw")), 10);
    let connected = tokio::spawn(async move {
        next(&mut second_events, Duration::from_secs(5), |e| match e {
            Event::Incoming(Packet::ConnAck(ack)) => Some(ack.code),
            _ => None,
        })
        .await
    });
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if first_events.poll().await.is_err() {
                return;
            }
        }
    });
    assert!(closed.await.is_ok(), "the first connection is closed");
    assert_eq!(connected.await.unwrap(), Some(ConnectReturnCode::Success));
    drop(second);
}

#[tokio::test]
async fn a_restricted_client_s_publish_elsewhere_is_acknowledged_counted_and_not_routed() {
    let (broker, logins) = broker_with_logins().await;
    let (watcher, mut watcher_events) = AsyncClient::new(options(&broker, "watcher", ("gw", "gw-pw")), 10);
    watcher.subscribe("up/#", QoS::AtLeastOnce).await.unwrap();
    next(&mut watcher_events, Duration::from_secs(5), |e| {
        matches!(e, Event::Incoming(Packet::SubAck(_))).then_some(())
    })
    .await
    .unwrap();
    let (a, mut a_events) = AsyncClient::new(options(&broker, "a", ("gw-a", "a-pw")), 10);
    a.publish("up/b/reading", QoS::AtLeastOnce, false, "forged").await.unwrap();
    assert!(next(&mut a_events, Duration::from_secs(5), puback).await.is_some(), "acknowledged, as Mosquitto does");
    a.publish("up/a/reading", QoS::AtLeastOnce, false, "own").await.unwrap();
    let sending = tokio::spawn(async move { next(&mut a_events, Duration::from_secs(5), |_| None::<()>).await });
    let seen = next(&mut watcher_events, Duration::from_secs(5), publish).await.expect("its own publish");
    assert_eq!((seen.topic.as_str(), &seen.payload[..]), ("up/a/reading", &b"own"[..]));
    assert!(next(&mut watcher_events, QUIET, publish).await.is_none(), "the forged one never arrives");
    assert_eq!(*logins.refused.lock().unwrap(), ["gw-a publish"]);
    sending.abort();
}

#[tokio::test]
async fn a_restricted_client_may_subscribe_to_its_own_filters_only() {
    let (broker, logins) = broker_with_logins().await;
    let (a, mut a_events) = AsyncClient::new(options(&broker, "a", ("gw-a", "a-pw")), 10);
    a.subscribe_many([
        rumqttc::SubscribeFilter::new("#".into(), QoS::AtLeastOnce),
        rumqttc::SubscribeFilter::new("down/a".into(), QoS::AtLeastOnce),
        rumqttc::SubscribeFilter::new("down/b".into(), QoS::AtLeastOnce),
    ])
    .await
    .unwrap();
    let codes = next(&mut a_events, Duration::from_secs(5), |e| match e {
        Event::Incoming(Packet::SubAck(ack)) => Some(ack.return_codes),
        _ => None,
    })
    .await
    .unwrap();
    let failure = SubscribeReasonCode::Failure;
    assert_eq!(codes, [failure, SubscribeReasonCode::Success(QoS::AtLeastOnce), failure]);
    assert_eq!(logins.refused.lock().unwrap().len(), 2);
}

#[tokio::test]
async fn a_bound_client_id_is_kept_for_its_identity() {
    let (broker, _) = broker_with_logins().await;
    let refused = |options| async move {
        let (_client, mut events) = AsyncClient::new(options, 10);
        match events.poll().await {
            Err(ConnectionError::ConnectionRefused(code)) => code,
            other => panic!("not refused: {other:?}"),
        }
    };
    assert_eq!(refused(options(&broker, "b", ("gw-a", "a-pw"))).await, ConnectReturnCode::BadClientId);
    let (_a, mut a_events) = AsyncClient::new(options(&broker, "a", ("gw-a", "a-pw")), 10);
    assert_eq!(next(&mut a_events, Duration::from_secs(5), connack).await, Some(ConnectReturnCode::Success));
    let spawned = tokio::spawn(async move { next(&mut a_events, Duration::from_secs(2), |_| None::<()>).await });
    assert_eq!(
        refused(options(&broker, "a", ("gw", "gw-pw"))).await,
        ConnectReturnCode::BadClientId,
        "another identity may not take a live session over"
    );
    spawned.abort();
}

#[tokio::test]
async fn disconnecting_an_identity_closes_its_connections() {
    let (broker, _) = broker_with_logins().await;
    let (_a, mut a_events) = AsyncClient::new(options(&broker, "a", ("gw-a", "a-pw")), 10);
    assert_eq!(next(&mut a_events, Duration::from_secs(5), connack).await, Some(ConnectReturnCode::Success));
    broker.disconnect("gw-a");
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if a_events.poll().await.is_err() {
                return;
            }
        }
    });
    assert!(closed.await.is_ok(), "the connection is closed");
}
