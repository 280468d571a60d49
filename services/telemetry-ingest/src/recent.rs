//! Answers that read much and change slowly (the top consumers), computed
//! at most once a minute per question and kept for the next askers.

use std::{
    collections::HashMap,
    hash::Hash,
    sync::Mutex,
    time::{Duration, Instant},
};

#[derive(Debug)]
pub struct Recent<K, V> {
    ttl: Duration,
    answers: Mutex<HashMap<K, (Instant, V)>>,
}

impl<K: Eq + Hash + Clone, V: Clone> Recent<K, V> {
    pub fn new(ttl: Duration) -> Self {
        Self { ttl, answers: Mutex::new(HashMap::new()) }
    }

    /// The answer to `key` computed less than the ttl ago, or `compute`'s.
    pub async fn get<E>(&self, key: K, compute: impl AsyncFnOnce() -> Result<V, E>) -> Result<V, E> {
        let fresh = |at: &Instant| at.elapsed() < self.ttl;
        if let Some((_, value)) = self.lock().get(&key).filter(|(at, _)| fresh(at)) {
            return Ok(value.clone());
        }
        let value = compute().await?;
        let mut answers = self.lock();
        answers.retain(|_, (at, _)| fresh(at));
        answers.insert(key, (Instant::now(), value.clone()));
        Ok(value)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, (Instant, V)>> {
        self.answers.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_answer_is_kept_for_its_ttl_per_question() {
        let recent = Recent::new(Duration::from_millis(200));
        let ask = async |key: u8, value: u32| recent.get(key, async || Ok::<_, ()>(value)).await.unwrap();
        assert_eq!((ask(1, 10).await, ask(1, 11).await, ask(2, 20).await), (10, 10, 20));
        tokio::time::sleep(Duration::from_millis(250)).await;
        assert_eq!(ask(1, 12).await, 12);
        let failed = recent.get(3, async || Err::<u32, _>("down")).await;
        assert_eq!((failed, ask(3, 30).await), (Err("down"), 30), "a failure is not kept");
    }
}
