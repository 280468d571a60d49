//! Password verification on a fixed set of threads.
//!
//! Each argon2 verification allocates 19 MiB. On tokio's blocking pool,
//! successive ones land on ever new threads, and the allocator keeps a
//! freed block per thread arena: a storm of failed sign-ins held hundreds
//! of MiB (`make login-storm`). A few long-lived threads reuse theirs, and
//! bound how many hashes run at once.

use std::{
    sync::{Arc, Mutex, mpsc},
    thread,
};

type Job = Box<dyn FnOnce() + Send>;

/// The hashing threads; they end when this is dropped.
#[derive(Debug)]
pub struct Hashers {
    jobs: mpsc::Sender<Job>,
}

#[derive(Debug, thiserror::Error)]
#[error("the password hashing threads are gone")]
pub struct HashersGone;

impl Hashers {
    /// `threads` hashing threads (at least one).
    pub fn start(threads: usize) -> Self {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for n in 0..threads.max(1) {
            let queue = queue.clone();
            let spawned = thread::Builder::new().name(format!("wm-argon2-{n}")).spawn(move || {
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
        Self { jobs }
    }

    /// Runs `work` on a hashing thread, in turn, and returns its result.
    pub async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, HashersGone> {
        let (reply, result) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = reply.send(work());
        });
        self.jobs.send(job).map_err(|_| HashersGone)?;
        result.await.map_err(|_| HashersGone)
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
            assert_eq!(doubled, n * 2, "each call gets its own work's result");
        }
    }
}
