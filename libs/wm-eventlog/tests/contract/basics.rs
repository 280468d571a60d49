//! Health, topic management and input validation.

use std::time::Duration;

use wm_eventlog::{ConsumerOptions, EventLogError, OutgoingRecord};

use crate::harness::{Harness, bounded, group};

crate::contract!(ready_and_topics, invalid_names_are_refused);

async fn ready_and_topics(h: Harness) {
    bounded("ready", h.log.ready()).await.expect("ready");
    let topic = h.topic("basics").await;
    // Creating an existing topic again is not an error.
    bounded("ensure again", h.log.ensure_topics(&[&topic])).await.expect("ensure_topics is idempotent");
    let mut replay = bounded("replay", h.log.replay(&[&topic])).await.expect("replay");
    assert!(replay.caught_up(), "an empty topic is caught up at once");
    let polled = bounded("poll", replay.poll(10, Duration::from_millis(300))).await.expect("poll");
    assert!(polled.is_empty(), "an empty topic has no records");
}

async fn invalid_names_are_refused(h: Harness) {
    let err = h.log.append(OutgoingRecord::new("bad topic", "k", b"x".to_vec())).await.expect_err("refused");
    assert!(matches!(err, EventLogError::InvalidTopic { .. }), "{err:?}");
    let err = h.log.ensure_topics(&["a/b"]).await.expect_err("refused");
    assert!(matches!(err, EventLogError::InvalidTopic { .. }), "{err:?}");
    let err = h.log.subscribe("", &["fine"], ConsumerOptions::default()).await.expect_err("refused");
    assert!(matches!(err, EventLogError::InvalidSettings { .. }), "{err:?}");
    let err = h.log.subscribe(&group("x"), &["no space"], ConsumerOptions::default()).await.expect_err("refused");
    assert!(matches!(err, EventLogError::InvalidTopic { .. }), "{err:?}");
}
