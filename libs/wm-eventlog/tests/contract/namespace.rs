//! Two namespaces on one log: each sees only its own records, under the
//! plain topic names, and its groups commit without touching the other's.

use wm_eventlog::{ConsumerOptions, OutgoingRecord, namespace::Namespaced};

use crate::harness::{Harness, bounded, group, payloads, poll_count};

crate::contract!(namespaces_do_not_see_each_other);

async fn namespaces_do_not_see_each_other(h: Harness) {
    let topic = format!("wm-test.namespace.{}", uuid::Uuid::now_v7().simple());
    let (blue, green) = (Namespaced::wrap(h.log.clone(), "blue."), Namespaced::wrap(h.log.clone(), "green."));
    for (log, colour) in [(&blue, "blue"), (&green, "green")] {
        bounded("create topic", log.ensure_topics(&[&topic])).await.expect("create topic");
        let record = OutgoingRecord::new(&topic, "device-1", colour.as_bytes().to_vec());
        let position = bounded("append", log.append(record)).await.expect("append");
        assert_eq!(position.topic, topic, "positions carry the plain name");
    }
    let group = group("namespace");
    for (log, colour) in [(&blue, "blue"), (&green, "green")] {
        let mut member =
            bounded("subscribe", log.subscribe(&group, &[&topic], ConsumerOptions::default())).await.expect("join");
        let got = poll_count(member.as_mut(), colour, 1).await;
        assert_eq!(payloads(&got), [colour], "only its own namespace's records");
        assert_eq!(got[0].topic, topic);
        bounded("commit", member.commit(&got)).await.expect("commit");
        let mut replay = bounded("replay", log.replay(&[&topic])).await.expect("replay");
        let replayed = poll_count(replay.as_mut(), colour, 1).await;
        assert_eq!(payloads(&replayed), [colour]);
    }
    let mut plain = bounded("replay", h.log.replay(&[&format!("blue.{topic}")])).await.expect("replay");
    assert_eq!(payloads(&poll_count(plain.as_mut(), "the prefixed topic", 1).await), ["blue"]);
}
