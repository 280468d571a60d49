//! A namespace: one prefix on every topic and consumer group, so several
//! deployments (staging beside production, or parallel test runs) can share
//! one Kafka cluster without reading each other's events or splitting each
//! other's groups. Services keep using the plain names of `wm_proto::topics`.

use async_trait::async_trait;
use futures::FutureExt;
use std::{sync::Arc, time::Duration};

use crate::{
    Consumer, ConsumerOptions, EventLog, LagReading, OutgoingRecord, Position, Record, Result, TopicPartition,
};

/// `inner`, with `prefix` added to every topic and group on the way in and
/// removed on the way out.
#[derive(Debug)]
pub struct Namespaced {
    inner: Arc<dyn EventLog>,
    prefix: String,
}

impl Namespaced {
    /// Wraps `inner`; an empty `prefix` returns `inner` itself.
    pub fn wrap(inner: Arc<dyn EventLog>, prefix: &str) -> Arc<dyn EventLog> {
        if prefix.is_empty() {
            return inner;
        }
        Arc::new(Self { inner, prefix: prefix.to_owned() })
    }

    fn add(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    fn all(&self, topics: &[&str]) -> Vec<String> {
        topics.iter().map(|t| self.add(t)).collect()
    }
}

fn refs(names: &[String]) -> Vec<&str> {
    names.iter().map(String::as_str).collect()
}

#[async_trait]
impl EventLog for Namespaced {
    fn kind(&self) -> &'static str {
        self.inner.kind()
    }

    async fn ensure_topics(&self, topics: &[&str]) -> Result<()> {
        self.inner.ensure_topics(&refs(&self.all(topics))).await
    }

    async fn append(&self, record: OutgoingRecord) -> Result<Position> {
        let position = self.inner.append(OutgoingRecord { topic: self.add(&record.topic), ..record }).await?;
        Ok(self.strip_position(position))
    }

    async fn append_batch(&self, records: Vec<OutgoingRecord>) -> Result<Vec<Position>> {
        let records = records.into_iter().map(|r| OutgoingRecord { topic: self.add(&r.topic), ..r }).collect();
        let positions = self.inner.append_batch(records).await?;
        Ok(positions.into_iter().map(|p| self.strip_position(p)).collect())
    }

    async fn subscribe(&self, group: &str, topics: &[&str], options: ConsumerOptions) -> Result<Box<dyn Consumer>> {
        let inner = self.inner.subscribe(&self.add(group), &refs(&self.all(topics)), options).await?;
        Ok(Box::new(NamespacedConsumer { inner, prefix: self.prefix.clone() }))
    }

    async fn replay(&self, topics: &[&str]) -> Result<Box<dyn Consumer>> {
        let inner = self.inner.replay(&refs(&self.all(topics))).await?;
        Ok(Box::new(NamespacedConsumer { inner, prefix: self.prefix.clone() }))
    }

    async fn ready(&self) -> Result<()> {
        self.inner.ready().await
    }
}

impl Namespaced {
    fn strip_position(&self, position: Position) -> Position {
        Position { topic: strip(&self.prefix, position.topic), ..position }
    }
}

fn strip(prefix: &str, topic: String) -> String {
    match topic.strip_prefix(prefix) {
        Some(plain) => plain.to_owned(),
        None => topic,
    }
}

#[derive(Debug)]
struct NamespacedConsumer {
    inner: Box<dyn Consumer>,
    prefix: String,
}

#[async_trait]
impl Consumer for NamespacedConsumer {
    async fn poll(&mut self, max: usize, timeout: Duration) -> Result<Vec<Record>> {
        let records = self.inner.poll(max, timeout).await?;
        Ok(records.into_iter().map(|r| Record { topic: strip(&self.prefix, r.topic), ..r }).collect())
    }

    async fn commit(&mut self, records: &[Record]) -> Result<()> {
        let records: Vec<Record> =
            records.iter().map(|r| Record { topic: format!("{}{}", self.prefix, r.topic), ..r.clone() }).collect();
        self.inner.commit(&records).await
    }

    fn assignment(&self) -> Vec<TopicPartition> {
        let assignment = self.inner.assignment();
        assignment.into_iter().map(|tp| TopicPartition { topic: strip(&self.prefix, tp.topic), ..tp }).collect()
    }

    fn assigned(&self) -> bool {
        self.inner.assigned()
    }

    fn caught_up(&self) -> bool {
        self.inner.caught_up()
    }

    fn lag(&mut self) -> LagReading {
        let (reading, prefix) = (self.inner.lag(), self.prefix.clone());
        async move {
            let lags = reading.await?;
            Ok(lags
                .into_iter()
                .map(|(tp, lag)| (TopicPartition { topic: strip(&prefix, tp.topic), ..tp }, lag))
                .collect())
        }
        .boxed()
    }
}
