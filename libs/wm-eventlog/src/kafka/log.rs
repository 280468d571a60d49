//! [`KafkaLog`]: the [`EventLog`] on librdkafka.

use std::{fmt, sync::Arc, time::Duration};

use async_trait::async_trait;
use rdkafka::{
    admin::AdminClient,
    client::DefaultClientContext,
    consumer::Consumer as _,
    producer::{FutureProducer, Producer as _},
};

use super::{
    KafkaSettings, admin,
    consumer::{GroupConsumer, Joining, KafkaConsumer},
    producer,
};
use crate::{Consumer, ConsumerOptions, EventLog, EventLogError, OutgoingRecord, Position, Result, validate_topic};

/// The event log of the distributed mode. Cheap to clone.
#[derive(Clone)]
pub struct KafkaLog {
    settings: Arc<KafkaSettings>,
    producer: FutureProducer,
    admin: Arc<AdminClient<DefaultClientContext>>,
}

impl KafkaLog {
    /// Builds the clients. Nothing is sent to the brokers yet: call
    /// [`EventLog::ensure_topics`] or [`EventLog::ready`] to find out whether
    /// they can be reached.
    pub fn connect(settings: KafkaSettings) -> Result<Self> {
        settings.validate()?;
        let producer = settings.producer().create().map_err(EventLogError::kafka("create producer"))?;
        let admin = settings.admin().create().map_err(EventLogError::kafka("create admin client"))?;
        Ok(Self { settings: Arc::new(settings), producer, admin: Arc::new(admin) })
    }

    /// Makes the cluster's topics match `specs` (see [`super::plan`]);
    /// returns what changed, per topic.
    pub async fn apply_topic_plan(
        &self,
        specs: &[super::plan::TopicSpec],
    ) -> Result<Vec<(String, Vec<super::plan::TopicChange>)>> {
        admin::apply_plan(&self.admin, &self.settings, specs).await
    }

    fn delivery_timeout(&self) -> Duration {
        Duration::from_millis(u64::from(self.settings.delivery_timeout_ms))
    }
}

fn owned(topics: &[&str]) -> Result<Vec<String>> {
    topics.iter().map(|t| validate_topic(t).map(|()| (*t).to_owned())).collect()
}

#[async_trait]
impl EventLog for KafkaLog {
    fn kind(&self) -> &'static str {
        "kafka"
    }

    #[tracing::instrument(skip_all, fields(log = "kafka", ?topics))]
    async fn ensure_topics(&self, topics: &[&str]) -> Result<()> {
        admin::ensure_topics(&self.admin, &self.settings, topics).await
    }

    async fn append(&self, record: OutgoingRecord) -> Result<Position> {
        let mut positions = producer::append_batch(&self.producer, &[record], self.delivery_timeout()).await?;
        Ok(positions.pop().expect("append_batch returns one position per record"))
    }

    async fn append_batch(&self, records: Vec<OutgoingRecord>) -> Result<Vec<Position>> {
        producer::append_batch(&self.producer, &records, self.delivery_timeout()).await
    }

    #[tracing::instrument(skip_all, fields(log = "kafka", group = %group, ?topics))]
    async fn subscribe(&self, group: &str, topics: &[&str], options: ConsumerOptions) -> Result<Box<dyn Consumer>> {
        if group.is_empty() {
            return Err(EventLogError::InvalidSettings { key: "group", message: "must not be empty".into() });
        }
        owned(topics)?;
        let consumer: GroupConsumer = self
            .settings
            .group_member(group, options.start)
            .create_with_context(Joining::default())
            .map_err(EventLogError::kafka("create consumer"))?;
        consumer.subscribe(topics).map_err(EventLogError::kafka("subscribe"))?;
        Ok(Box::new(KafkaConsumer::member(consumer, group)))
    }

    #[tracing::instrument(skip_all, fields(log = "kafka", ?topics))]
    async fn replay(&self, topics: &[&str]) -> Result<Box<dyn Consumer>> {
        let topics = owned(topics)?;
        // A group id of its own that nothing else uses; it never commits.
        let group = format!("{}-replay-{}", self.settings.client_id, uuid::Uuid::now_v7().simple());
        let consumer: GroupConsumer = self
            .settings
            .replayer(&group)
            .create_with_context(Joining::default())
            .map_err(EventLogError::kafka("create consumer"))?;
        let consumer = Arc::new(consumer);
        let timeout = self.settings.request_timeout();
        let planner = consumer.clone();
        let (assignment, end) =
            tokio::task::spawn_blocking(move || admin::replay_plan(&planner, &topics, timeout)).await??;
        consumer.assign(&assignment).map_err(EventLogError::kafka("assign"))?;
        Ok(Box::new(KafkaConsumer::replay(consumer, end)))
    }

    async fn ready(&self) -> Result<()> {
        let producer = self.producer.clone();
        let timeout = self.settings.request_timeout();
        tokio::task::spawn_blocking(move || producer.client().fetch_metadata(None, timeout))
            .await?
            .map_err(EventLogError::kafka("read metadata"))?;
        Ok(())
    }
}

impl fmt::Debug for KafkaLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KafkaLog").field("settings", &self.settings).finish_non_exhaustive()
    }
}
