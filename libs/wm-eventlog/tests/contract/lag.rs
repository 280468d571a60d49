//! A consumer reports how many records lie past its position.

use std::time::Duration;

use crate::harness::{Harness, WAIT, bounded, group, records};

crate::contract!(lag_counts_what_is_not_yet_polled);

async fn lag_counts_what_is_not_yet_polled(h: Harness) {
    let topic = h.topic("lag").await;
    // One key: every record in one partition. One append each: Tansu, the
    // test broker, reports a batch's high watermark as its first offset + 1.
    for record in records(&topic, "r", 5, 1) {
        bounded("append", h.log.append(record)).await.unwrap();
    }
    let mut consumer = h.subscribe(&group("lag"), &topic).await;
    let mut polled = 0;
    bounded("two records", async {
        while polled < 2 {
            polled += consumer.poll(2 - polled, Duration::from_millis(200)).await.unwrap().len();
        }
    })
    .await;

    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let lags = consumer.lag().await.unwrap();
        let total: i64 = lags.iter().map(|(_, lag)| lag).sum();
        if total == 3 && lags.iter().all(|(tp, _)| tp.topic == topic) {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "lag is {lags:?}, expected 3 in all");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
