//! What cannot be ingested is dead-lettered with its reason, counted, and
//! never a crash.

use serde_json::json;
use wm_domain::Clock;
use wm_proto::{
    Payload, topics,
    v1::{DeadLetter, DeadLetterReason},
};

use super::{Gateway, known};
use crate::{
    helpers::{eventually, spawn_each},
    suite::{gateway_body, meter_body, register},
};

/// The dead letters on the log, once there are `n`.
async fn dead_letters(app: &crate::helpers::TestApp, n: usize) -> Vec<DeadLetter> {
    eventually("the dead letters are on the log", || async {
        let letters: Vec<_> = app
            .events(topics::DEAD_LETTERS)
            .await
            .into_iter()
            .filter_map(|e| match e.payload {
                Some(Payload::DeadLetter(d)) => Some(d),
                _ => None,
            })
            .collect();
        (letters.len() == n).then_some(letters)
    })
    .await
}

#[tokio::test]
async fn bad_uplinks_are_dead_lettered_with_their_reason() {
    for app in spawn_each(|_| {}).await {
        register(&app, "gateways", gateway_body(1)).await;
        register(&app, "wmeters", meter_body(1)).await;
        known(&app, 1, 1).await;
        let now = app.clock.now();
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let reading = |record: i64, at: String| {
            json!({"messageId": 1, "timestamp": at, "meter": "C0:00:00:00:00:01", "record": record, "unit": "L"})
                .to_string()
        };
        let cases: Vec<(&str, Vec<u8>, DeadLetterReason)> = vec![
            ("reading", b"{not json".to_vec(), DeadLetterReason::MalformedPayload),
            ("weather", br#"{"messageId": 2}"#.to_vec(), DeadLetterReason::UnknownKind),
            ("reading", reading(-5, now.to_rfc3339()).into_bytes(), DeadLetterReason::MalformedPayload),
            (
                "reading",
                reading(5, (now + chrono::Duration::days(365)).to_rfc3339()).into_bytes(),
                DeadLetterReason::OutOfRange,
            ),
            ("heartbeat", vec![b' '; 1024 * 1024], DeadLetterReason::PayloadTooLarge),
            (
                "reading",
                b"{\"messageId\": 3, \"meter\": \"C0:00\xff\xfe\"}".to_vec(),
                DeadLetterReason::MalformedPayload,
            ),
            (
                "reading",
                reading(5, now.to_rfc3339()).replace("\"record\":5", "\"record\":NaN").into_bytes(),
                DeadLetterReason::MalformedPayload,
            ),
            (
                "reading",
                reading(5, now.to_rfc3339()).replace("\"record\":5", "\"record\":1e400").into_bytes(),
                DeadLetterReason::MalformedPayload,
            ),
            (
                "reading",
                format!("{{\"messageId\": {}4{}}}", "[".repeat(10_000), "]".repeat(10_000)).into_bytes(),
                DeadLetterReason::MalformedPayload,
            ),
            (
                "alert",
                json!({"messageId": 5, "timestamp": now.to_rfc3339(), "meter": "C0:00:00:00:00:01",
                       "type": "<script>x</script>", "state": "raised"})
                .to_string()
                .into_bytes(),
                DeadLetterReason::MalformedPayload,
            ),
        ];
        for (kind, payload, _) in &cases {
            gw.send(kind, payload.clone()).await;
        }
        gw.acked(cases.len()).await;
        let mut stranger = Gateway::connect(&app, "ZZ99999999").await;
        stranger.send("heartbeat", json!({"messageId": 1, "timestamp": now.to_rfc3339()}).to_string()).await;
        stranger.acked(1).await;

        let letters = dead_letters(&app, cases.len() + 1).await;
        let mut expected: Vec<i32> = cases.iter().map(|(_, _, reason)| *reason as i32).collect();
        expected.push(DeadLetterReason::UnknownGateway as i32);
        let mut got: Vec<i32> = letters.iter().map(|d| d.reason).collect();
        expected.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, expected);
        for letter in &letters {
            assert!(!letter.detail.is_empty() && letter.raw_topic.starts_with("wmeter/v1/gw/"), "{letter:?}");
        }
        let huge = letters.iter().find(|d| d.reason == DeadLetterReason::PayloadTooLarge as i32).unwrap();
        assert!(huge.detail.contains("1048576 bytes"), "{}", huge.detail);

        let metrics = app.get("/metrics").await.text().await.unwrap();
        for reason in ["malformed-payload", "unknown-kind", "out-of-range", "payload-too-large", "unknown-gateway"] {
            assert!(metrics.contains(&format!("reason=\"{reason}\"")), "{reason} counted:\n{metrics}");
        }
        assert_eq!(app.json("/api/proxy/gateways/count", 200).await, json!({"count": 1}), "still serving");
    }
}

#[tokio::test]
async fn a_flooding_gateway_s_excess_is_dead_lettered_and_the_others_pass() {
    for app in spawn_each(|s| (s.telemetry.gateway_rate_per_sec, s.telemetry.gateway_rate_burst) = (1, 3)).await {
        register(&app, "gateways", gateway_body(1)).await;
        register(&app, "gateways", gateway_body(2)).await;
        known(&app, 2, 0).await;
        let now = app.clock.now().to_rfc3339();
        let heartbeat = |id: u32| json!({"messageId": id, "timestamp": now}).to_string();
        // The app's clock stands still: no token comes back.
        let mut flooding = Gateway::connect(&app, "GW00000001").await;
        for id in 1..=5 {
            flooding.send("heartbeat", heartbeat(id)).await;
        }
        flooding.acked(5).await;
        let mut quiet = Gateway::connect(&app, "GW00000002").await;
        quiet.send("heartbeat", heartbeat(1)).await;
        quiet.acked(1).await;

        let letters = dead_letters(&app, 2).await;
        for letter in &letters {
            assert_eq!(letter.reason, DeadLetterReason::RateLimited as i32, "{letter:?}");
            assert_eq!(letter.raw_topic, "wmeter/v1/gw/GW00000001/heartbeat");
            assert!(letter.detail.contains("more than its 1 uplinks a second"), "{}", letter.detail);
        }
        let metrics = app.get("/metrics").await.text().await.unwrap();
        let counted = metrics
            .lines()
            .find(|l| l.starts_with("wmeter_ingest_dead_letters_total{") && l.contains("reason=\"rate-limited\""));
        assert!(counted.is_some_and(|l| l.ends_with(" 2")), "{metrics}");
        let accepted = metrics
            .lines()
            .find(|l| l.starts_with("wmeter_ingest_uplinks_total{") && l.contains("outcome=\"accepted\""));
        assert!(accepted.is_some_and(|l| l.ends_with(" 4")), "3 of the flood and the quiet one: {metrics}");
    }
}
