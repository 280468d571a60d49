//! Change hints on the stream: every user's stream (a viewer's too) learns
//! which devices changed and how, coalesced: a burst of 1,000 readings is
//! a handful of hints, each naming a meter once.

use std::time::Duration;

use serde_json::{Value, json};
use wm_http::auth::Role;
use wm_proto::{Envelope, Payload, v1::ReadingReceived};
use wm_test_support::sse::Events;

use crate::{events::user, helpers::spawn_each};

fn reading(meter: &str, n: u64) -> Envelope {
    let reading = ReadingReceived { meter_id: meter.into(), record: n, message_id: n, ..ReadingReceived::default() };
    Envelope::new(meter, "gateway:GW00000001", Payload::ReadingReceived(reading))
}

/// The ids a hint names.
fn ids(hint: &Value) -> Vec<String> {
    hint["devices"].as_array().unwrap().iter().map(|d| d["id"].as_str().unwrap().to_owned()).collect()
}

#[tokio::test]
async fn a_burst_of_readings_reaches_every_stream_as_a_few_coalesced_hints() {
    for app in spawn_each(Duration::from_secs(1)).await {
        let vic = user(&app, "vic", Role::Viewer).await;
        let mut stream = Events::open(&app, &vic, None).await;
        // The hints follow the log from its end: wait until they do.
        let mut live = false;
        for _ in 0..30 {
            app.publish(&[reading("65f0c0ffee00000000000000", 0)]).await;
            if stream.hint(Duration::from_secs(2)).await.is_some() {
                live = true;
                break;
            }
        }
        assert!(live, "a hint within 30 tries");
        while stream.hint(Duration::from_secs(1)).await.is_some() {}

        let meters = ["65f0c0ffee00000000000001", "65f0c0ffee00000000000002", "65f0c0ffee00000000000003"];
        let burst: Vec<_> = (0..1000_u64).map(|n| reading(meters[(n % 3) as usize], n + 1)).collect();
        app.publish(&burst).await;
        let mut hints = Vec::new();
        while let Some(hint) = stream.hint(Duration::from_secs(3)).await {
            hints.push(hint);
        }
        assert!(!hints.is_empty() && hints.len() < 20, "{} hints for 1,000 readings", hints.len());
        for hint in &hints {
            let named = ids(hint);
            let mut unique = named.clone();
            unique.dedup();
            assert_eq!(named, unique, "a hint names a device once: {hint}");
            assert_eq!((&hint["changes"], &hint["complete"]), (&json!(["reading"]), &json!(true)));
            assert!(
                hint["devices"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|d| d["kind"] == "meter" && d["changes"] == json!(["reading"]))
            );
        }
        let mut every: Vec<String> = hints.iter().flat_map(ids).collect();
        every.sort();
        every.dedup();
        assert_eq!(every, meters, "each meter that changed is named");
        assert!(stream.next(Duration::from_millis(500)).await.is_none(), "hints are not notifications");
    }
}
