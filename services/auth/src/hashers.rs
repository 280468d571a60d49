//! Password verification on a fixed set of threads.
//!
//! Each argon2 verification allocates 19 MiB. On tokio's blocking pool,
//! successive ones land on ever new threads, and the allocator keeps a
//! freed block per thread arena: a storm of failed sign-ins held hundreds
//! of MiB (`make login-storm`). A few long-lived threads reuse theirs, and
//! bound how many hashes run at once.
//!
//! The queue in front of them is bounded too: past about a second of work
//! per thread, a sign-in is refused at once ([`HashersError::Busy`], a 429)
//! instead of waiting. A storm of wrong passwords then costs the host the
//! hashing threads' cores and no more, and a real user's sign-in waits a
//! second at most.

use std::{
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
        mpsc,
    },
    thread,
};

type Job = Box<dyn FnOnce() + Send>;

/// The hashing threads' nice value: serving requests wins the CPU from
/// them, so a storm of sign-ins slows the other endpoints less.
const NICE: i32 = 10;

/// Hashes waiting or running per thread before new ones are refused: an
/// argon2 verification takes tens of milliseconds, so about a second of work.
const QUEUED_PER_THREAD: usize = 20;

/// The hashing threads; they end when this is dropped.
#[derive(Debug)]
pub struct Hashers {
    jobs: mpsc::Sender<Job>,
    /// Jobs sent and not finished.
    pending: Arc<AtomicUsize>,
    limit: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum HashersError {
    #[error("the password hashing threads are busy")]
    Busy,
    #[error("the password hashing threads are gone")]
    Gone,
}

impl Hashers {
    /// `threads` hashing threads (at least one).
    pub fn start(threads: usize) -> Self {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for n in 0..threads.max(1) {
            let queue = queue.clone();
            let spawned = thread::Builder::new().name(format!("wm-argon2-{n}")).spawn(move || {
                yield_to_requests();
                loop {
                    let job = queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner).recv();
                    let Ok(job) = job else { return };
                    job();
                }
            });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "a password hashing thread could not start");
            }
        }
        Self { jobs, pending: Arc::new(AtomicUsize::new(0)), limit: threads.max(1) * QUEUED_PER_THREAD }
    }

    /// Runs `work` on a hashing thread, in turn, and returns its result;
    /// [`HashersError::Busy`] at once when the queue is full.
    pub async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, HashersError> {
        if self.pending.fetch_add(1, Ordering::AcqRel) >= self.limit {
            self.pending.fetch_sub(1, Ordering::AcqRel);
            return Err(HashersError::Busy);
        }
        let (reply, result) = tokio::sync::oneshot::channel();
        let pending = self.pending.clone();
        let job: Job = Box::new(move || {
            let _ = reply.send(work());
            pending.fetch_sub(1, Ordering::AcqRel);
        });
        if self.jobs.send(job).is_err() {
            self.pending.fetch_sub(1, Ordering::AcqRel);
            return Err(HashersError::Gone);
        }
        result.await.map_err(|_| HashersError::Gone)
    }
}

/// Lowers the calling thread's priority to [`NICE`] (on Linux, the nice
/// value of a thread id is the thread's own).
fn yield_to_requests() {
    #[cfg(target_os = "linux")]
    if let Err(e) = rustix::process::setpriority_process(Some(rustix::thread::gettid()), NICE) {
        tracing::warn!(error = %e, "cannot lower the password hashing thread's priority");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_runs_on_the_hashing_threads_and_its_result_comes_back() {
        let hashers = Hashers::start(2);
        for n in 0..8_u32 {
            let (name, doubled) =
                hashers.run(move || (thread::current().name().unwrap_or_default().to_owned(), n * 2)).await.unwrap();
            assert!(name.starts_with("wm-argon2-"), "{name}");
            #[cfg(target_os = "linux")]
            {
                let nice = hashers.run(|| rustix::process::getpriority_process(Some(rustix::thread::gettid())));
                assert_eq!(nice.await.unwrap().unwrap(), NICE, "the hashing threads yield to requests");
            }
            assert_eq!(doubled, n * 2, "each call gets its own work's result");
        }
    }

    #[tokio::test]
    async fn past_a_full_queue_work_is_refused_at_once_and_taken_again_once_it_drains() {
        let hashers = Arc::new(Hashers::start(1));
        let (release, gate) = std::sync::mpsc::channel::<()>();
        let gate = Arc::new(Mutex::new(gate));
        let mut queued = Vec::new();
        for _ in 0..QUEUED_PER_THREAD {
            let (hashers, gate) = (hashers.clone(), gate.clone());
            queued.push(tokio::spawn(async move {
                hashers.run(move || gate.lock().unwrap().recv().is_ok()).await.unwrap()
            }));
        }
        while hashers.pending.load(Ordering::Acquire) < QUEUED_PER_THREAD {
            tokio::task::yield_now().await;
        }
        assert!(matches!(hashers.run(|| ()).await, Err(HashersError::Busy)));
        for _ in 0..QUEUED_PER_THREAD {
            release.send(()).unwrap();
        }
        for job in queued {
            assert!(job.await.unwrap(), "the queued work ran");
        }
        assert_eq!(hashers.run(|| 7).await.unwrap(), 7, "taken again once drained");
    }
}
