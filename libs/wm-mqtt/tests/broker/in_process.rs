//! Ingest's durable session taken in the same process
//! (`EmbeddedBroker::take_durable`): no client connection, no packets.

use std::time::Duration;

use rumqttc::{AsyncClient, ConnectReturnCode, ConnectionError, Event, QoS};

use super::{QUIET, broker, broker_holding, logins, next, options, puback};

/// A delivery to ingest in this process, within 5 s.
async fn taken(session: &mut wm_mqtt::LocalSession) -> wm_mqtt::LocalDelivery {
    tokio::time::timeout(Duration::from_secs(5), session.recv()).await.expect("delivered in time").expect("delivered")
}

#[tokio::test]
async fn a_publish_is_acknowledged_only_once_ingest_has_let_it_go_stored() {
    let broker = broker().await;
    let (gateway, mut gateway_events) = AsyncClient::new(options(&broker, "gw-1", ("gw", "gw-pw")), 10);
    gateway.publish("up/gw-1/reading", QoS::AtLeastOnce, false, "r1").await.unwrap();
    assert!(next(&mut gateway_events, QUIET, puback).await.is_none(), "held while ingest has not taken it");

    // What was published before ingest took its session is waiting in it.
    let mut session = broker.take_durable().expect("the durable session");
    let first = taken(&mut session).await;
    assert_eq!((first.topic(), first.payload()), ("up/gw-1/reading", &b"r1"[..]));
    gateway.publish("up/gw-1/reading", QoS::AtLeastOnce, false, "r2").await.unwrap();
    assert!(next(&mut gateway_events, QUIET, puback).await.is_none(), "held while ingest has not acknowledged");
    let second = taken(&mut session).await;
    assert_eq!(second.payload(), b"r2");

    first.ack();
    second.ack();
    assert!(next(&mut gateway_events, Duration::from_secs(5), puback).await.is_some());
    assert!(next(&mut gateway_events, Duration::from_secs(5), puback).await.is_some(), "both are acknowledged");
}

#[tokio::test]
async fn a_message_let_go_unstored_is_never_acknowledged_and_the_rest_wait_in_the_session() {
    let broker = broker().await;
    let mut session = broker.take_durable().expect("the durable session");
    let (gateway, mut gateway_events) = AsyncClient::new(options(&broker, "gw-1", ("gw", "gw-pw")), 10);
    gateway.publish("up/gw-1/reading", QoS::AtLeastOnce, false, "r1").await.unwrap();
    gateway.publish("up/gw-1/reading", QoS::AtLeastOnce, false, "r2").await.unwrap();
    let sent = |e| matches!(e, Event::Outgoing(rumqttc::Outgoing::Publish(_))).then_some(());
    next(&mut gateway_events, Duration::from_secs(5), sent).await.expect("r1 sent");
    next(&mut gateway_events, Duration::from_secs(5), sent).await.expect("r2 sent");

    drop(taken(&mut session).await); // a stop, or a failure to store: not acknowledged
    assert!(next(&mut gateway_events, QUIET, puback).await.is_none(), "r1 is not acknowledged");
    drop(session); // r2, not taken yet, goes back to the session

    let mut session = broker.take_durable().expect("the session, given back");
    let again = taken(&mut session).await;
    assert_eq!(again.payload(), b"r2");
    again.ack();
    assert!(next(&mut gateway_events, Duration::from_secs(5), puback).await.is_some(), "r2 is acknowledged");
    assert!(next(&mut gateway_events, QUIET, puback).await.is_none(), "and r1 still is not");
}

#[tokio::test]
async fn the_durable_session_is_held_against_network_clients() {
    let broker = broker().await;
    let mut session = broker.take_durable().expect("the durable session");
    assert!(broker.take_durable().is_none(), "taken once");
    let (_ingest, mut ingest_events) = AsyncClient::new(options(&broker, "ingest", ("svc", "svc-pw")), 10);
    // Longer than the broker waits for a session to be let go (5 s).
    let mut network = ingest_events.network_options();
    network.set_connection_timeout(10);
    ingest_events.set_network_options(network);
    let refused = tokio::time::timeout(Duration::from_secs(15), ingest_events.poll()).await.expect("answered");
    assert!(
        matches!(refused, Err(ConnectionError::ConnectionRefused(ConnectReturnCode::ServiceUnavailable))),
        "{refused:?}"
    );

    broker.publish("up/gw-1/reading".into(), b"from inside".to_vec());
    assert_eq!(taken(&mut session).await.payload(), b"from inside", "still delivered in process");
}

#[tokio::test]
async fn past_the_total_held_no_publisher_is_read_until_ingest_lets_some_go() {
    let broker = broker_holding(logins(), 2).await;
    let mut session = broker.take_durable().expect("the durable session");
    let mut polling = Vec::new();
    let mut gateway = |id: &str| {
        let (client, mut events) = AsyncClient::new(options(&broker, id, ("gw", "gw-pw")), 10);
        polling.push(tokio::spawn(async move { while events.poll().await.is_ok() {} }));
        client
    };
    let (one, two) = (gateway("gw-1"), gateway("gw-2"));
    for payload in ["r1", "r2"] {
        one.publish("up/gw-1/reading", QoS::AtLeastOnce, false, payload).await.unwrap();
    }
    let first = taken(&mut session).await;
    let second = taken(&mut session).await;
    assert_eq!((first.payload(), second.payload()), (&b"r1"[..], &b"r2"[..]));

    two.publish("up/gw-2/reading", QoS::AtLeastOnce, false, "r3").await.unwrap();
    let early = tokio::time::timeout(QUIET, session.recv()).await;
    assert!(early.is_err(), "r3 waits in gw-2's socket while two are held: {early:?}");
    first.ack();
    assert_eq!(taken(&mut session).await.payload(), b"r3", "read once one is let go");
    polling.iter().for_each(tokio::task::JoinHandle::abort);
}

/// Many publishers against a total of two: each connection is held back and
/// let go again thousands of times. One whose room came back just after it
/// stopped handling what it had read once waited for its socket, where its
/// client, its window full of those very publishes, sent nothing until its
/// keep-alive: a stall of a whole keep-alive, seen at 500 gateways in the
/// ingest benchmark (docs/performance.md, §1), and here in about one round
/// in four before it was mended.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn publishers_held_back_by_the_total_are_all_read_again_without_waiting_for_their_keep_alive() {
    for round in 1..=10 {
        // A round takes a fraction of a second; a stalled publisher waits
        // two minutes for its keep-alive.
        let done = tokio::time::timeout(Duration::from_secs(20), publish_past_a_total_of_two(24, 400)).await;
        assert!(done.is_ok(), "round {round}: a publisher waited for its keep-alive");
    }
}

/// `publishers` each publish `each` messages, ten in flight, to a broker
/// holding at most two for an ingest that takes and acknowledges them in
/// batches of three; returns once all are acknowledged.
async fn publish_past_a_total_of_two(publishers: usize, each: usize) {
    let broker = broker_holding(logins(), 2).await;
    let mut session = broker.take_durable().expect("the durable session");
    let ingest = tokio::spawn(async move {
        let mut taken = 0;
        while taken < publishers * each {
            let batch = session.batch(3).await.expect("the broker is up");
            taken += batch.len();
            batch.into_iter().for_each(wm_mqtt::LocalDelivery::ack);
        }
    });
    let mut sending = tokio::task::JoinSet::new();
    for n in 0..publishers {
        let mut options = options(&broker, &format!("gw-{n}"), ("gw", "gw-pw"));
        options.set_keep_alive(Duration::from_secs(120)).set_inflight(10);
        let (client, mut events) = AsyncClient::new(options, 20);
        sending.spawn(async move {
            let topic = format!("up/gw-{n}/reading");
            let publishing = tokio::spawn(async move {
                for i in 0..each {
                    client.publish(topic.as_str(), QoS::AtLeastOnce, false, i.to_string()).await.unwrap();
                }
                client
            });
            let mut acked = 0;
            while acked < each {
                if puback(events.poll().await.unwrap()).is_some() {
                    acked += 1;
                }
            }
            drop(publishing.await.unwrap());
        });
    }
    while let Some(done) = sending.join_next().await {
        done.unwrap();
    }
    ingest.await.unwrap();
}
