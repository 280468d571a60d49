//! Any sequence of keyed appends (single and batched) is consumed by a
//! group member with nothing lost, nothing duplicated and every key's order
//! kept.
//!
//! One member follows one topic through all cases, as a projection would:
//! a new group costs seconds on a real broker (its first join is held for
//! the initial rebalance delay), so it is not paid per case. Each case uses
//! keys of its own, so a record of an earlier case showing up is a failure.

use std::{
    cell::{Cell, RefCell},
    future::Future,
    time::Duration,
};

use proptest::{prelude::*, test_runner::TestRunner};
use tokio::time::Instant;
use wm_eventlog::{Consumer, OutgoingRecord};

use crate::harness::{Harness, WAIT, bounded, by_key, expected_by_key, group};

/// Batches of (key index, payload) pairs; a batch of one uses `append`.
fn batches() -> impl Strategy<Value = Vec<Vec<(u8, u16)>>> {
    prop::collection::vec(prop::collection::vec((0_u8..6, any::<u16>()), 1..10), 1..8)
}

#[test]
fn embedded() {
    run(64, Harness::embedded());
}

#[test]
fn kafka() {
    run(16, async { Harness::kafka().await });
}

struct Case<'a> {
    h: &'a Harness,
    topic: &'a str,
    consumer: &'a mut dyn Consumer,
    number: usize,
}

fn run<H>(cases: u32, harness: impl Future<Output = H>)
where
    H: Into<Option<Harness>>,
{
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    let Some(h) = runtime.block_on(harness).into() else {
        return;
    };
    let (topic, consumer) = runtime.block_on(async {
        let topic = h.topic("prop").await;
        let consumer = h.subscribe(&group("prop"), &topic).await;
        (topic, consumer)
    });
    let config = ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() };
    let mut runner = TestRunner::new(config);
    // The runner takes a `Fn`: the case counter and the member are shared cells.
    let (number, consumer) = (Cell::new(0), RefCell::new(consumer));
    let result = runner.run(&batches(), |batches| {
        number.set(number.get() + 1);
        let mut consumer = consumer.borrow_mut();
        let case = Case { h: &h, topic: &topic, consumer: consumer.as_mut(), number: number.get() };
        runtime.block_on(appends_are_consumed_in_key_order(case, batches))
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
}

async fn appends_are_consumed_in_key_order(case: Case<'_>, batches: Vec<Vec<(u8, u16)>>) -> Result<(), TestCaseError> {
    let fail = |e: wm_eventlog::EventLogError| TestCaseError::fail(e.to_string());
    let mut sent = Vec::new();
    for batch in batches {
        let records: Vec<OutgoingRecord> = batch
            .into_iter()
            .map(|(key, value)| {
                // The index makes payloads unique, so a loss or a duplicate shows.
                let payload = format!("{}-{value}", sent.len()).into_bytes();
                let record = OutgoingRecord::new(case.topic, format!("case-{}-device-{key}", case.number), payload);
                sent.push(record.clone());
                record
            })
            .collect();
        if let [record] = records.as_slice() {
            bounded("append", case.h.log.append(record.clone())).await.map_err(fail)?;
        } else {
            bounded("append batch", case.h.log.append_batch(records)).await.map_err(fail)?;
        }
    }

    let deadline = Instant::now() + WAIT;
    let mut got = Vec::new();
    while got.len() < sent.len() {
        prop_assert!(Instant::now() < deadline, "only {} of {} records after {WAIT:?}", got.len(), sent.len());
        let polled = case.consumer.poll(7, Duration::from_millis(200)).await.map_err(fail)?;
        case.consumer.commit(&polled).await.map_err(fail)?;
        got.extend(polled);
    }
    let prefix = format!("case-{}-", case.number);
    prop_assert!(got.iter().all(|r| r.key.starts_with(&prefix)), "a record of an earlier case came again");
    prop_assert_eq!(got.len(), sent.len(), "nothing duplicated");
    prop_assert_eq!(by_key(&got), expected_by_key(&sent), "nothing lost, per-key order kept");
    Ok(())
}
