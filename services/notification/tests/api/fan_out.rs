//! Many streams of one user: one read of the table serves them all, each
//! gets every notification once and in order, and a stream resuming from
//! far behind reads the table itself at once, then follows the others.

use std::{sync::Arc, time::Duration};

use serde_json::json;
use wm_http::auth::Role;
use wm_notification::{
    hub::Hub,
    storage::inbox::{self, Notification},
};
use wm_test_support::sse::{Events, notified};

use crate::{
    events::{alert, meter, until_counted, user},
    helpers::spawn_each,
};

const WAIT: Duration = Duration::from_secs(30);
/// Longer than any wait below: no stream is served by its heartbeat.
const HEARTBEAT: Duration = Duration::from_secs(600);

#[tokio::test]
async fn every_stream_of_a_user_gets_each_notification_once_and_a_resumed_one_catches_up_at_once() {
    for app in spawn_each(HEARTBEAT).await {
        let ann = user(&app, "ann", Role::Operator).await;
        let meter = meter(&app, 1).await;
        until_counted(&app, "the meter's name is known", "notification_devices", 1).await;
        let mut streams = Vec::new();
        for _ in 0..8 {
            streams.push(Events::open(&app, &ann, None).await);
        }
        app.publish(&[alert(&meter, "leak")]).await;
        let mut firsts = Vec::new();
        for stream in &mut streams {
            firsts.push(stream.next(WAIT).await.expect("the alert reaches every stream").id);
        }
        assert!(firsts.windows(2).all(|w| w[0] == w[1]), "the same notification: {firsts:?}");

        let mut resumed = Events::open(&app, &ann, Some(0)).await;
        let missed = resumed.next(Duration::from_secs(5)).await.expect("what it missed, without waiting for a beat");
        assert_eq!(missed.id, firsts[0]);
        streams.push(resumed);

        app.publish(&[alert(&meter, "tamper"), alert(&meter, "burst"), alert(&meter, "low-battery")]).await;
        for stream in &mut streams {
            let mut events = Vec::new();
            for _ in 0..3 {
                let event = stream.next(WAIT).await.expect("every alert reaches every stream");
                events.push((event.id, event.data["event"].clone()));
            }
            let words: Vec<_> = events.iter().map(|(_, event)| event.clone()).collect();
            assert_eq!(words, [json!("tamper alert"), json!("burst alert"), json!("low-battery alert")]);
            assert!(events[0].0 > firsts[0] && events.windows(2).all(|w| w[0].0 < w[1].0), "in order: {events:?}");
            let rest = stream.raw_within(Duration::from_millis(300)).await;
            assert!(!notified(&rest), "nothing twice: {rest}");
        }
    }
}

#[tokio::test]
async fn the_streams_of_a_user_share_one_read_and_another_user_s_feed_reads_nothing_of_it() {
    for app in spawn_each(HEARTBEAT).await {
        let hub = Hub::new(app.db().clone(), HEARTBEAT);
        let (mut first, mut second, mut other) = (hub.open("ann"), hub.open("ann"), hub.open("bob"));
        for subscription in [&first, &second, &other] {
            subscription.feed.start(0);
        }
        let mut tx = app.db().begin_write().await.unwrap();
        for n in 1..=3 {
            let notification = Notification {
                seq: 0,
                id: format!("n{n}"),
                user_id: "ann".into(),
                device_name: "W-WM00000001".into(),
                device_id: "m".into(),
                device_kind: "meter".into(),
                event: "leak alert".into(),
                status: "raised".into(),
                kind: "alert".into(),
                params: "{}".into(),
                created_at: 0,
            };
            inbox::insert(&mut tx, &notification).await.unwrap();
        }
        tx.commit().await.unwrap();
        hub.wake("ann", "");
        let read = tokio::time::timeout(WAIT, first.feed.batches.recv()).await.unwrap().unwrap();
        let shared = second.feed.batches.recv().await.unwrap();
        assert!(Arc::ptr_eq(&read, &shared), "one read, one encoding, for both streams");
        assert_eq!((read.after, read.events.len()), (0, 3));
        assert!(read.events.iter().all(|(_, event)| event.starts_with(b"id: ")), "whole events");
        assert_eq!(first.feed.read_up_to(), read.last());
        hub.wake("bob", "");
        let nothing = tokio::time::timeout(Duration::from_millis(300), other.feed.batches.recv()).await;
        assert!(nothing.is_err(), "bob has no notification: his feed sends nothing");
    }
}
