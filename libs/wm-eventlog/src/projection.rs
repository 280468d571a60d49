//! Running a projection: the loop that turns a service's events into its
//! tables, and the rebuild behind `wmeter replay`.
//!
//! A projection's writes must be idempotent (keyed by event id or by the
//! gateway's message id): delivery is at-least-once, so a batch can arrive
//! again after a crash between the projection's commit and the offset commit.

use std::{fmt::Debug, time::Duration};

use async_trait::async_trait;
use prometheus_client::{
    metrics::{family::Family, gauge::Gauge},
    registry::Registry,
};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::{Consumer, ConsumerOptions, EventLog, EventLogError, Record, TopicPartition, membership::Membership};

/// Whether applying events may act on the outside world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effects {
    /// Live consumption: push SSE messages, send valve commands.
    Live,
    /// A rebuild: write the tables only. Replaying history must never notify
    /// a user or move a valve again.
    Suppressed,
}

/// The error a projection reports; its cause chain is logged.
pub type ApplyError = Box<dyn std::error::Error + Send + Sync>;

/// Events in, table rows out.
#[async_trait]
pub trait Projection: Send + Sync + Debug {
    /// The consumer group, unique per projection, e.g. `device-registry.devices`.
    fn name(&self) -> &'static str;

    /// The topics it reads.
    fn topics(&self) -> &'static [&'static str];

    /// Applies a batch, durably, in one transaction where it can. Records it
    /// cannot decode are its own business (dead-letter or skip them): an
    /// error here means "retry this batch", so it must be transient.
    async fn apply(&self, records: &[Record], effects: Effects) -> Result<(), ApplyError>;

    /// Empties the projection's tables before a rebuild.
    async fn reset(&self) -> Result<(), ApplyError>;

    /// Called once a rebuild applied its last batch. A projection that
    /// holds its live batches back during a rebuild ([`crate::checkpoint`])
    /// lets them through here.
    async fn rebuilt(&self) -> Result<(), ApplyError> {
        Ok(())
    }

    /// Whether it consumes the log while the service runs. A projection of
    /// a service's own events, whose commands already wrote the tables,
    /// runs only to rebuild them.
    fn live(&self) -> bool {
        true
    }

    /// How long a live batch may wait for more records, and up to how many,
    /// before it is applied. A projection whose transactions cost more than
    /// its records (each is a turn at the database's one writer, then an
    /// offset commit) lingers to apply fewer, fuller batches, at the price
    /// of that much delay. None by default.
    fn linger(&self) -> Linger {
        Linger::default()
    }
}

/// See [`Projection::linger`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Linger {
    pub wait: Duration,
    /// Records a lingering batch may hold (the run's batch size when smaller).
    pub up_to: usize,
}

impl Linger {
    /// For a live projection of the telemetry topics, which carry a record
    /// or two per uplink. Under a steady load, ingest commits small batches
    /// often, and each commit woke such a projection for a transaction of a
    /// few records: at half of the ingest rate, the registry's state fell
    /// behind for good (docs/performance.md §1). 25 ms more before a
    /// reading is visible buys batches of a hundred records and more.
    pub const TELEMETRY: Linger = Linger { wait: Duration::from_millis(25), up_to: 2_000 };
}

#[derive(Debug, thiserror::Error)]
pub enum ProjectionError {
    #[error("event log")]
    Log(#[from] EventLogError),
    #[error("projection {name} failed")]
    Apply {
        name: &'static str,
        #[source]
        source: ApplyError,
    },
}

/// How a projection consumes.
#[derive(Clone, Copy, Debug)]
pub struct RunOptions {
    /// Records per batch (and per transaction).
    pub batch: usize,
    /// How long one poll waits for records.
    pub poll_timeout: Duration,
    /// Longest wait between retries of a failing batch or poll.
    pub max_backoff: Duration,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self { batch: 500, poll_timeout: Duration::from_secs(1), max_backoff: Duration::from_secs(30) }
    }
}

/// `wmeter_consumer_lag{group, topic, partition}`: how many records lie past
/// each live projection's position, read every [`LAG_INTERVAL`].
#[derive(Clone, Debug, Default)]
pub struct LagMetric(Family<Vec<(&'static str, String)>, Gauge>);

/// How often a running projection reports its lag.
pub const LAG_INTERVAL: Duration = Duration::from_secs(15);

impl LagMetric {
    pub const NAME: &'static str = "wmeter_consumer_lag";

    pub fn register(registry: &mut Registry) -> Self {
        let metric = Self::default();
        registry.register(Self::NAME, "Records not yet consumed, per projection and partition", metric.0.clone());
        metric
    }

    fn set(&self, group: &str, tp: &TopicPartition, lag: i64) {
        let labels =
            vec![("group", group.to_owned()), ("topic", tp.topic.clone()), ("partition", tp.partition.to_string())];
        self.0.get_or_create(&labels).set(lag);
    }

    /// Reads `consumer`'s lag apart from the projection's loop, and sets
    /// it once read. On Kafka a reading is a round trip per partition,
    /// which a slow broker can stretch to seconds (Tansu: 2–5 s): inline,
    /// it held every batch back that long, every [`LAG_INTERVAL`]
    /// (docs/performance.md §2).
    fn start(&self, group: &'static str, consumer: &mut dyn Consumer) -> tokio::task::JoinHandle<()> {
        let (metric, reading) = (self.clone(), consumer.lag());
        let read = async move {
            match reading.await {
                Ok(lags) => lags.iter().for_each(|(tp, lag)| metric.set(group, tp, *lag)),
                Err(e) => tracing::debug!(error = ?e, "cannot read the consumer lag"),
            }
        };
        tokio::spawn(read.in_current_span())
    }
}

/// Consumes `projection`'s topics as a member of its group until `stop` is
/// cancelled, telling `membership` once the group assigned it its share.
/// Joining, polling and applying are retried with backoff; a failing batch
/// is never skipped: offsets are committed only after `apply` succeeded, so
/// a stop or crash in between redelivers the batch.
#[tracing::instrument(skip_all, fields(projection = projection.name()))]
pub async fn run(
    log: &dyn EventLog,
    projection: &dyn Projection,
    options: RunOptions,
    lag: &LagMetric,
    membership: &Membership,
    stop: CancellationToken,
) {
    membership.expect(projection.name());
    let mut backoff = Backoff::new(options.max_backoff);
    // The log may be down at start-up (a broker restarting): wait for it
    // rather than leave the projection stopped for good.
    let mut consumer = loop {
        let joined = async {
            log.ensure_topics(projection.topics()).await?;
            log.subscribe(projection.name(), projection.topics(), ConsumerOptions::default()).await
        };
        match joined.await {
            Ok(consumer) => break consumer,
            Err(e) => {
                tracing::warn!(error = ?e, "cannot join the event log yet, retrying");
                if !backoff.wait(&stop).await {
                    return;
                }
            }
        }
    };
    backoff.reset();
    note_joined(consumer.as_ref(), projection.name(), membership);
    let mut lag_read_at: Option<tokio::time::Instant> = None;
    let mut lag_reading: Option<tokio::task::JoinHandle<()>> = None;
    loop {
        let polled = tokio::select! {
            () = stop.cancelled() => return,
            polled = consumer.poll(options.batch, options.poll_timeout) => polled,
        };
        // After a poll, when the consumer knows its partitions and position.
        note_joined(consumer.as_ref(), projection.name(), membership);
        let due = lag_read_at.is_none_or(|at| at.elapsed() >= LAG_INTERVAL);
        if due && lag_reading.as_ref().is_none_or(tokio::task::JoinHandle::is_finished) {
            lag_reading = Some(lag.start(projection.name(), consumer.as_mut()));
            lag_read_at = Some(tokio::time::Instant::now());
        }
        let batch = match polled {
            Ok(batch) => batch,
            Err(e) => {
                tracing::warn!(error = ?e, "poll failed, retrying");
                if !backoff.wait(&stop).await {
                    return;
                }
                continue;
            }
        };
        backoff.reset();
        if batch.is_empty() {
            continue;
        }
        let batch = fill(consumer.as_mut(), batch, projection.linger(), options.batch, &stop).await;
        let span = tracing::info_span!("apply", projection = projection.name(), records = batch.len());
        crate::trace::follow(&span, &batch);
        loop {
            match projection.apply(&batch, Effects::Live).instrument(span.clone()).await {
                Ok(()) => break,
                Err(e) => {
                    tracing::warn!(error = ?e, records = batch.len(), "apply failed, retrying the batch");
                    if !backoff.wait(&stop).await {
                        return;
                    }
                }
            }
        }
        backoff.reset();
        if let Err(e) = consumer.commit(&batch).await {
            // The batch is applied; a redelivery of it changes nothing.
            tracing::warn!(error = ?e, "offset commit failed; the batch may be delivered again");
        }
    }
}

/// Tells `membership` that `group` joined, once its consumer is assigned.
fn note_joined(consumer: &dyn Consumer, group: &'static str, membership: &Membership) {
    if consumer.assigned() {
        membership.joined(group);
    }
}

/// `batch` with what else arrives within the linger, up to its records (or
/// `max`, if more).
async fn fill(
    consumer: &mut dyn Consumer,
    mut batch: Vec<Record>,
    linger: Linger,
    max: usize,
    stop: &CancellationToken,
) -> Vec<Record> {
    let max = max.max(linger.up_to);
    let deadline = tokio::time::Instant::now() + linger.wait;
    while batch.len() < max {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        if left.is_zero() {
            break;
        }
        let more = tokio::select! {
            () = stop.cancelled() => break,
            more = consumer.poll(max - batch.len(), left) => more,
        };
        match more {
            Ok(more) if !more.is_empty() => batch.extend(more),
            Ok(_) => break,
            Err(e) => {
                tracing::warn!(error = ?e, "poll failed while filling a batch; applying what came");
                break;
            }
        }
    }
    batch
}

/// Rebuilds `projection` from offset 0: resets its tables, then applies every
/// record the log held when the rebuild started, with effects suppressed.
/// No group's offsets move. Returns how many records were applied.
#[tracing::instrument(skip_all, fields(projection = projection.name()))]
pub async fn rebuild(
    log: &dyn EventLog,
    projection: &dyn Projection,
    options: RunOptions,
) -> Result<u64, ProjectionError> {
    let failed = |source| ProjectionError::Apply { name: projection.name(), source };
    log.ensure_topics(projection.topics()).await?;
    projection.reset().await.map_err(failed)?;
    let mut replay = log.replay(projection.topics()).await?;
    let mut applied = 0_u64;
    while !replay.caught_up() {
        let batch = replay.poll(options.batch, options.poll_timeout).await?;
        if !batch.is_empty() {
            projection.apply(&batch, Effects::Suppressed).await.map_err(failed)?;
            applied += batch.len() as u64;
        }
    }
    projection.rebuilt().await.map_err(failed)?;
    tracing::info!(applied, "projection rebuilt");
    Ok(applied)
}

/// Doubling waits from 100 ms up to a ceiling, cut short by a stop.
struct Backoff {
    next: Duration,
    max: Duration,
}

impl Backoff {
    const FIRST: Duration = Duration::from_millis(100);

    fn new(max: Duration) -> Self {
        Self { next: Self::FIRST, max }
    }

    fn reset(&mut self) {
        self.next = Self::FIRST;
    }

    /// False when `stop` was cancelled during the wait.
    async fn wait(&mut self, stop: &CancellationToken) -> bool {
        let wait = self.next;
        self.next = (self.next * 2).min(self.max);
        tokio::select! {
            () = stop.cancelled() => false,
            () = tokio::time::sleep(wait) => true,
        }
    }
}
