//! Topic creation and the metadata a replay needs.

use std::{collections::BTreeMap, sync::Arc, time::Duration};

use rdkafka::{
    Offset, TopicPartitionList,
    admin::{
        AdminClient, AdminOptions, AlterConfig, ConfigSource, NewPartitions, NewTopic, ResourceSpecifier,
        TopicReplication,
    },
    client::DefaultClientContext,
    consumer::Consumer as _,
    types::RDKafkaErrorCode,
};

use super::{
    KafkaSettings,
    plan::{self, ObservedTopic, TopicChange, TopicSpec},
};
use crate::{EventLogError, Result, TopicPartition, validate_topic};

type Admin = AdminClient<DefaultClientContext>;

/// Creates the missing topics, as the topic plan has them; existing ones
/// are left as they are.
pub(super) async fn ensure_topics(admin: &Admin, settings: &KafkaSettings, topics: &[&str]) -> Result<()> {
    for topic in topics {
        validate_topic(topic)?;
    }
    let specs: Vec<TopicSpec> = topics.iter().map(|t| plan::spec(settings, t)).collect();
    create(admin, settings, &specs).await
}

async fn create(admin: &Admin, settings: &KafkaSettings, specs: &[TopicSpec]) -> Result<()> {
    let new: Vec<NewTopic<'_>> = specs
        .iter()
        .map(|spec| {
            let topic = NewTopic::new(&spec.name, spec.partitions, TopicReplication::Fixed(spec.replication_factor));
            spec.configs.iter().fold(topic, |topic, (key, value)| topic.set(key, value))
        })
        .collect();
    let (timeout, options) = options(settings);
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

fn options(settings: &KafkaSettings) -> (Duration, AdminOptions) {
    let timeout = settings.request_timeout();
    (timeout, AdminOptions::new().request_timeout(Some(timeout)).operation_timeout(Some(timeout)))
}

/// Makes the cluster's topics match `specs`: creates the missing ones,
/// raises partition counts, and sets the configuration keys that differ.
/// Returns the changes, per topic, made in that order (none for a topic
/// that already matched).
pub(super) async fn apply_plan(
    admin: &Arc<Admin>,
    settings: &KafkaSettings,
    specs: &[TopicSpec],
) -> Result<Vec<(String, Vec<TopicChange>)>> {
    let partitions = partition_counts(admin, settings).await?;
    let mut applied = Vec::new();
    for spec in specs {
        validate_topic(&spec.name)?;
        let observed = match partitions.get(&spec.name) {
            Some(&partitions) => {
                let configs = describe(admin, settings, &spec.name).await?;
                Some(ObservedTopic { partitions, configs: configs.into_iter().map(|(k, v, _)| (k, v)).collect() })
            }
            None => None,
        };
        let changes = plan::changes(spec, observed.as_ref());
        for change in &changes {
            make(admin, settings, spec, change).await?;
        }
        applied.push((spec.name.clone(), changes));
    }
    Ok(applied)
}

async fn make(admin: &Admin, settings: &KafkaSettings, spec: &TopicSpec, change: &TopicChange) -> Result<()> {
    let (timeout, options) = options(settings);
    let failed = |action, code| EventLogError::TopicChange { topic: spec.name.clone(), action, code };
    match change {
        TopicChange::Create => create(admin, settings, std::slice::from_ref(spec)).await,
        TopicChange::MorePartitionsThanPlanned { .. } => Ok(()),
        TopicChange::AddPartitions { to, .. } => {
            let count = usize::try_from(*to).unwrap_or(1);
            let partitions = NewPartitions::new(&spec.name, count);
            let results = tokio::time::timeout(timeout, admin.create_partitions([&partitions], &options))
                .await
                .map_err(|_| EventLogError::Timeout { operation: "add partitions", after: timeout })?
                .map_err(EventLogError::kafka("add partitions"))?;
            results.into_iter().try_for_each(|r| r.map(|_| ()).map_err(|(_, code)| failed("add partitions", code)))
        }
        TopicChange::Configure(_) => {
            // AlterConfigs sets a topic's whole dynamic configuration: the
            // keys the plan does not manage are sent back as they are.
            let mut kept: Vec<(String, String)> = describe(admin, settings, &spec.name)
                .await?
                .into_iter()
                .filter(|(key, _, source)| {
                    *source == ConfigSource::DynamicTopic && !spec.configs.contains_key(key.as_str())
                })
                .map(|(key, value, _)| (key, value))
                .collect();
            kept.sort();
            let alter = kept
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .chain(spec.configs.iter().map(|(k, v)| (*k, v.as_str())))
                .fold(AlterConfig::new(ResourceSpecifier::Topic(&spec.name)), |alter, (k, v)| alter.set(k, v));
            let results = tokio::time::timeout(timeout, admin.alter_configs([&alter], &options))
                .await
                .map_err(|_| EventLogError::Timeout { operation: "configure topic", after: timeout })?
                .map_err(EventLogError::kafka("configure topic"))?;
            results
                .into_iter()
                .try_for_each(|r| r.map(|_| ()).map_err(|(_, code)| failed("set the configuration", code)))
        }
    }
}

/// Every topic of the cluster and its partition count. All topics are
/// asked for at once: asking for one by name makes a broker that
/// auto-creates topics create it, with its default partitions.
async fn partition_counts(admin: &Arc<Admin>, settings: &KafkaSettings) -> Result<BTreeMap<String, i32>> {
    let timeout = settings.request_timeout();
    let admin = admin.clone();
    let metadata = tokio::task::spawn_blocking(move || admin.inner().fetch_metadata(None, timeout))
        .await?
        .map_err(EventLogError::kafka("read metadata"))?;
    Ok(metadata
        .topics()
        .iter()
        .filter(|t| t.error().is_none() && !t.partitions().is_empty())
        .map(|t| (t.name().to_owned(), i32::try_from(t.partitions().len()).unwrap_or(i32::MAX)))
        .collect())
}

/// The topic's configuration: each key's effective value and where it
/// comes from.
async fn describe(admin: &Admin, settings: &KafkaSettings, topic: &str) -> Result<Vec<(String, String, ConfigSource)>> {
    let (timeout, options) = options(settings);
    let described = tokio::time::timeout(timeout, admin.describe_configs([&ResourceSpecifier::Topic(topic)], &options))
        .await
        .map_err(|_| EventLogError::Timeout { operation: "describe topic", after: timeout })?
        .map_err(EventLogError::kafka("describe topic"))?;
    let mut entries = Vec::new();
    for resource in described {
        let resource = resource.map_err(|code| EventLogError::TopicChange {
            topic: topic.to_owned(),
            action: "describe the configuration",
            code,
        })?;
        entries.extend(resource.entries.into_iter().filter_map(|e| Some((e.name, e.value?, e.source))));
    }
    Ok(entries)
}

/// Every partition of `topics`, starting at offset 0, and the end offset
/// (high watermark) of each non-empty one now. Blocking: run it off the
/// runtime.
pub(super) fn replay_plan(
    consumer: &Arc<super::consumer::GroupConsumer>,
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
