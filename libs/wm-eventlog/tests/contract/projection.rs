//! The projection runner on both logs: live consumption commits only what
//! was applied, a failing batch is retried and never skipped, a slow lag
//! reading holds no batch back, and a rebuild re-applies everything with
//! effects suppressed.

use std::{
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;
use wm_eventlog::{
    Consumer, ConsumerOptions, EventLog, LagReading, OutgoingRecord, Position, Record, Result, TopicPartition,
    projection::{self, ApplyError, Effects, Projection, RunOptions},
};

use crate::harness::{Harness, WAIT, group};

/// Remembers what it applied, and fails its first `fail_first` batches.
#[derive(Debug)]
struct Recorder {
    name: &'static str,
    topics: &'static [&'static str],
    applied: Mutex<Vec<(String, Effects)>>,
    fail_first: AtomicUsize,
    resets: AtomicUsize,
}

impl Recorder {
    /// Names live as long as the test process, as a projection's do.
    fn new(topic: &str) -> Arc<Recorder> {
        Arc::new(Recorder {
            name: Box::leak(group("recorder").into_boxed_str()),
            topics: Box::leak(vec![&*Box::leak(topic.to_owned().into_boxed_str())].into_boxed_slice()),
            applied: Mutex::default(),
            fail_first: AtomicUsize::new(0),
            resets: AtomicUsize::new(0),
        })
    }

    fn payloads(&self) -> Vec<String> {
        let mut all: Vec<_> = self.applied.lock().unwrap().iter().map(|(p, _)| p.clone()).collect();
        all.sort();
        all
    }

    fn effects(&self) -> Vec<Effects> {
        self.applied.lock().unwrap().iter().map(|(_, e)| *e).collect()
    }
}

#[async_trait]
impl Projection for Recorder {
    fn name(&self) -> &'static str {
        self.name
    }

    fn topics(&self) -> &'static [&'static str] {
        self.topics
    }

    async fn apply(&self, records: &[Record], effects: Effects) -> Result<(), ApplyError> {
        if self.fail_first.load(Ordering::SeqCst) > 0 {
            self.fail_first.fetch_sub(1, Ordering::SeqCst);
            return Err("database unavailable".into());
        }
        let mut applied = self.applied.lock().unwrap();
        applied.extend(records.iter().map(|r| (String::from_utf8_lossy(&r.payload).into_owned(), effects)));
        Ok(())
    }

    async fn reset(&self) -> Result<(), ApplyError> {
        self.resets.fetch_add(1, Ordering::SeqCst);
        self.applied.lock().unwrap().clear();
        Ok(())
    }
}

fn options() -> RunOptions {
    RunOptions { batch: 50, poll_timeout: Duration::from_millis(200), max_backoff: Duration::from_millis(400) }
}

async fn append(h: &Harness, topic: &str, prefix: &str, n: usize) -> Vec<String> {
    let payloads: Vec<String> = (0..n).map(|i| format!("{prefix}-{i:03}")).collect();
    let records =
        payloads.iter().enumerate().map(|(i, p)| OutgoingRecord::new(topic, format!("k{}", i % 5), p.clone()));
    h.log.append_batch(records.collect()).await.unwrap();
    let mut sorted = payloads;
    sorted.sort();
    sorted
}

async fn run_until_applied(log: &Arc<dyn EventLog>, recorder: &Arc<Recorder>, count: usize) {
    let stop = CancellationToken::new();
    let (log, rec, token) = (log.clone(), recorder.clone(), stop.clone());
    let running = tokio::spawn(async move {
        projection::run(
            log.as_ref(),
            rec.as_ref(),
            options(),
            &projection::LagMetric::default(),
            &Default::default(),
            token,
        )
        .await
    });
    let deadline = tokio::time::Instant::now() + WAIT;
    while recorder.applied.lock().unwrap().len() < count {
        assert!(tokio::time::Instant::now() < deadline, "projection did not apply {count} records in time");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Give the runner its commit before stopping it.
    tokio::time::sleep(Duration::from_millis(300)).await;
    stop.cancel();
    running.await.unwrap();
}

async fn live_run_retries_failures_and_commits_what_it_applied(h: Harness) {
    let topic = h.topic("projection-live").await;
    let sent = append(&h, &topic, "old", 60).await;
    let recorder = Recorder::new(&topic);
    recorder.fail_first.store(2, Ordering::SeqCst);
    run_until_applied(&h.log, &recorder, sent.len()).await;
    assert_eq!(recorder.payloads(), sent, "every record applied once, none skipped by the failures");
    assert!(recorder.effects().iter().all(|e| *e == Effects::Live));

    // A restarted runner resumes after the committed offsets: only new records.
    let more = append(&h, &topic, "new", 5).await;
    recorder.applied.lock().unwrap().clear();
    run_until_applied(&h.log, &recorder, more.len()).await;
    assert_eq!(recorder.payloads(), more, "only records appended after the commit");
}

async fn rebuild_reapplies_everything_with_effects_suppressed(h: Harness) {
    let topic = h.topic("projection-rebuild").await;
    let sent = append(&h, &topic, "old", 40).await;
    let recorder = Recorder::new(&topic);
    run_until_applied(&h.log, &recorder, sent.len()).await;

    let applied = projection::rebuild(h.log.as_ref(), recorder.as_ref(), options()).await.unwrap();
    assert_eq!(applied, 40);
    assert_eq!(recorder.resets.load(Ordering::SeqCst), 1);
    assert_eq!(recorder.payloads(), sent, "the rebuilt state equals the live state");
    assert!(recorder.effects().iter().all(|e| *e == Effects::Suppressed), "a rebuild has no external effects");

    // The live group's offsets did not move: a new live run gets nothing old.
    let fresh = append(&h, &topic, "new", 1).await;
    recorder.applied.lock().unwrap().clear();
    run_until_applied(&h.log, &recorder, 1).await;
    assert_eq!(recorder.payloads(), fresh);
}

/// A log whose consumers take a minute to read their lag, as a slow broker
/// can take seconds.
#[derive(Debug)]
struct SlowLag(Arc<dyn EventLog>);

#[async_trait]
impl EventLog for SlowLag {
    fn kind(&self) -> &'static str {
        self.0.kind()
    }
    async fn ensure_topics(&self, topics: &[&str]) -> Result<()> {
        self.0.ensure_topics(topics).await
    }
    async fn append(&self, record: OutgoingRecord) -> Result<Position> {
        self.0.append(record).await
    }
    async fn append_batch(&self, records: Vec<OutgoingRecord>) -> Result<Vec<Position>> {
        self.0.append_batch(records).await
    }
    async fn subscribe(&self, group: &str, topics: &[&str], options: ConsumerOptions) -> Result<Box<dyn Consumer>> {
        Ok(Box::new(SlowLagConsumer(self.0.subscribe(group, topics, options).await?)))
    }
    async fn replay(&self, topics: &[&str]) -> Result<Box<dyn Consumer>> {
        self.0.replay(topics).await
    }
    async fn ready(&self) -> Result<()> {
        self.0.ready().await
    }
}

#[derive(Debug)]
struct SlowLagConsumer(Box<dyn Consumer>);

#[async_trait]
impl Consumer for SlowLagConsumer {
    async fn poll(&mut self, max: usize, timeout: Duration) -> Result<Vec<Record>> {
        self.0.poll(max, timeout).await
    }
    async fn commit(&mut self, records: &[Record]) -> Result<()> {
        self.0.commit(records).await
    }
    fn assignment(&self) -> Vec<TopicPartition> {
        self.0.assignment()
    }
    fn assigned(&self) -> bool {
        self.0.assigned()
    }
    fn caught_up(&self) -> bool {
        self.0.caught_up()
    }
    fn lag(&mut self) -> LagReading {
        let reading = self.0.lag();
        Box::pin(async move {
            tokio::time::sleep(Duration::from_secs(60)).await;
            reading.await
        })
    }
}

/// The lag is read at the first poll, and this one takes a minute: the
/// records are applied meanwhile, not after it.
async fn a_slow_lag_reading_holds_no_batch_back(h: Harness) {
    let topic = h.topic("projection-slow-lag").await;
    let sent = append(&h, &topic, "old", 10).await;
    let recorder = Recorder::new(&topic);
    let slow: Arc<dyn EventLog> = Arc::new(SlowLag(h.log.clone()));
    run_until_applied(&slow, &recorder, sent.len()).await;
    assert_eq!(recorder.payloads(), sent);
}

crate::contract!(
    live_run_retries_failures_and_commits_what_it_applied,
    rebuild_reapplies_everything_with_effects_suppressed,
    a_slow_lag_reading_holds_no_batch_back
);
