//! Topic creation and the metadata a replay needs.

use std::{collections::BTreeMap, sync::Arc, time::Duration};

use rdkafka::{
    Offset, TopicPartitionList,
    admin::{AdminClient, AdminOptions, NewTopic, TopicReplication},
    client::DefaultClientContext,
    consumer::{Consumer as _, StreamConsumer},
    types::RDKafkaErrorCode,
};

use super::KafkaSettings;
use crate::{EventLogError, Result, TopicPartition, validate_topic};

/// Creates the missing topics; existing ones are left as they are.
pub(super) async fn ensure_topics(
    admin: &AdminClient<DefaultClientContext>,
    settings: &KafkaSettings,
    topics: &[&str],
) -> Result<()> {
    for topic in topics {
        validate_topic(topic)?;
    }
    let new: Vec<NewTopic<'_>> = topics
        .iter()
        .map(|t| NewTopic::new(t, settings.partitions, TopicReplication::Fixed(settings.replication_factor)))
        .collect();
    let timeout = settings.request_timeout();
    let options = AdminOptions::new().request_timeout(Some(timeout)).operation_timeout(Some(timeout));
    let results = tokio::time::timeout(timeout + Duration::from_secs(1), admin.create_topics(&new, &options))
        .await
        .map_err(|_| EventLogError::Timeout { operation: "create topics", after: timeout })?
        .map_err(EventLogError::kafka("create topics"))?;
    for result in results {
        match result {
            Ok(topic) => tracing::info!(topic, partitions = settings.partitions, "topic created"),
            Err((_, RDKafkaErrorCode::TopicAlreadyExists)) => {}
            Err((topic, code)) => return Err(EventLogError::TopicCreation { topic, code }),
        }
    }
    Ok(())
}

/// Every partition of `topics`, starting at offset 0, and the end offset
/// (high watermark) of each non-empty one now. Blocking: run it off the
/// runtime.
pub(super) fn replay_plan(
    consumer: &Arc<StreamConsumer>,
    topics: &[String],
    timeout: Duration,
) -> Result<(TopicPartitionList, BTreeMap<TopicPartition, i64>)> {
    let mut assignment = TopicPartitionList::new();
    let mut end = BTreeMap::new();
    for topic in topics {
        let metadata = consumer.fetch_metadata(Some(topic), timeout).map_err(EventLogError::kafka("read metadata"))?;
        let partitions = metadata
            .topics()
            .iter()
            .find(|t| t.name() == topic && t.error().is_none())
            .map(|t| t.partitions().iter().map(|p| p.id()).collect::<Vec<_>>())
            .filter(|ids| !ids.is_empty())
            .ok_or_else(|| EventLogError::UnknownTopic(topic.clone()))?;
        for partition in partitions {
            assignment
                .add_partition_offset(topic, partition, Offset::Beginning)
                .map_err(EventLogError::kafka("plan replay"))?;
            let (low, high) = consumer
                .fetch_watermarks(topic, partition, timeout)
                .map_err(EventLogError::kafka("read watermarks"))?;
            if high > low {
                end.insert(TopicPartition::new(topic, partition), high);
            }
        }
    }
    Ok((assignment, end))
}
