//! A closed-loop load generator: `workers` tasks, each sending its next
//! request as soon as the last one answered, for a fixed time.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use tokio::task::JoinSet;

/// What one load run measured.
#[derive(Debug)]
pub struct Sample {
    /// Each successful operation's latency, in milliseconds.
    pub latencies_ms: Vec<f64>,
    /// Operations that got an answer, but not a successful one (a 503 from
    /// an overloaded server): counted, not timed.
    pub failures: usize,
    pub elapsed: Duration,
}

impl Sample {
    /// Successful operations a second.
    pub fn per_second(&self) -> f64 {
        self.latencies_ms.len() as f64 / self.elapsed.as_secs_f64()
    }

    /// `""`, or `", N of M failed"` to put beside the figure.
    pub fn failure_note(&self) -> String {
        match self.failures {
            0 => String::new(),
            n => format!(", {n} of {} failed", n + self.latencies_ms.len()),
        }
    }
}

/// Runs `op(i)` from `workers` tasks for `duration`; `i` counts each
/// worker's operations, offset so that no two workers share one. `op`
/// answers whether it succeeded; an `Err` (no answer at all) ends the run.
pub async fn closed_loop<F, Fut>(workers: usize, duration: Duration, op: F) -> anyhow::Result<Sample>
where
    F: Fn(u64) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = anyhow::Result<bool>> + Send,
{
    let op = Arc::new(op);
    let started = Instant::now();
    let deadline = started + duration;
    let mut tasks = JoinSet::new();
    for worker in 0..workers as u64 {
        let op = op.clone();
        tasks.spawn(async move {
            let (mut latencies, mut failures) = (Vec::new(), 0);
            let mut i = worker << 32;
            while Instant::now() < deadline {
                let sent = Instant::now();
                if op(i).await? {
                    latencies.push(sent.elapsed().as_secs_f64() * 1000.0);
                } else {
                    failures += 1;
                }
                i += 1;
            }
            anyhow::Ok((latencies, failures))
        });
    }
    let (mut latencies_ms, mut failures) = (Vec::new(), 0);
    while let Some(done) = tasks.join_next().await {
        let (latencies, failed) = done??;
        latencies_ms.extend(latencies);
        failures += failed;
    }
    Ok(Sample { latencies_ms, failures, elapsed: started.elapsed() })
}

/// A well-mixed number for `i`, to spread requests over the seeded devices.
pub fn scatter(i: u64) -> u64 {
    let mut x = i.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
