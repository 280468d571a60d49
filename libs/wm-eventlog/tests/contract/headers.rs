//! Headers (the trace context) travel with the record, in order, byte for
//! byte.

use wm_eventlog::OutgoingRecord;

use crate::harness::{Harness, bounded, group, poll_count};

crate::contract!(headers_round_trip);

async fn headers_round_trip(h: Harness) {
    let topic = h.topic("headers").await;
    let traced = OutgoingRecord::new(&topic, "device-1", b"with headers".to_vec())
        .with_header("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
        .with_header("empty", Vec::new())
        .with_header("binary", vec![0_u8, 255, 1, 0])
        .with_header("traceparent", "duplicate names are kept");
    let plain = OutgoingRecord::new(&topic, "device-1", b"no headers".to_vec());
    h.append_all(vec![traced.clone(), plain.clone()]).await;

    let mut consumer = h.subscribe(&group("headers"), &topic).await;
    let got = poll_count(consumer.as_mut(), "both records", 2).await;
    assert_eq!(got[0].payload, traced.payload);
    assert_eq!(got[0].headers, traced.headers);
    assert_eq!(got[0].header("traceparent"), Some(&b"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"[..]));
    assert_eq!(got[1].payload, plain.payload);
    assert!(got[1].headers.is_empty());
    bounded("commit", consumer.commit(&got)).await.expect("commit");
}
