//! The topic plan for Kafka: each topic's partitions, replication and the
//! configuration that bounds what it keeps. `wmeter topics plan` prints it,
//! `wmeter topics apply` makes the cluster match it, and a service that
//! finds a topic missing creates it from the same plan.
//!
//! Every topic is kept with `cleanup.policy=delete`. Compaction keeps only
//! the last record of each key, and w-meter's records are events, not
//! states: a device's `MeterRegistered` would go once its `MeterUpdated`
//! came, and a replay could no longer rebuild the registry. So the topics
//! every projection is built from are kept forever (`retention.ms=-1`),
//! which keeps `wmeter replay` exact; only the dead letters, which no
//! projection reads, expire. docs/operations.md, "Topics and partitions",
//! gives the disk this costs.

use std::{collections::BTreeMap, fmt};

use wm_proto::topics;

use super::KafkaSettings;

/// How long the dead letters (input kept verbatim for an operator to look
/// at) stay.
pub const DEAD_LETTER_RETENTION_DAYS: i64 = 30;
const DAY_MS: i64 = 24 * 3_600_000;

/// What one topic should be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicSpec {
    /// With the namespace.
    pub name: String,
    pub partitions: i32,
    pub replication_factor: i32,
    /// The topic-level configuration the plan sets; others are left alone.
    pub configs: BTreeMap<&'static str, String>,
}

/// The plan for every topic of `wm_proto::topics`.
pub fn topic_plan(settings: &KafkaSettings) -> Vec<TopicSpec> {
    topics::ALL.iter().map(|topic| spec(settings, &format!("{}{topic}", settings.namespace))).collect()
}

/// The plan for one topic, named with its namespace.
pub fn spec(settings: &KafkaSettings, name: &str) -> TopicSpec {
    let plain = name.strip_prefix(settings.namespace.as_str()).unwrap_or(name);
    let retention_ms = if plain == topics::DEAD_LETTERS { DEAD_LETTER_RETENTION_DAYS * DAY_MS } else { -1 };
    let configs = BTreeMap::from([
        ("cleanup.policy", "delete".to_owned()),
        ("retention.ms", retention_ms.to_string()),
        // An append is acknowledged by all in-sync replicas (`acks=all`):
        // with two of three, one broker may be down and nothing is lost.
        ("min.insync.replicas", settings.replication_factor.min(2).to_string()),
    ]);
    TopicSpec {
        name: name.to_owned(),
        partitions: settings.partitions,
        replication_factor: settings.replication_factor,
        configs,
    }
}

/// Makes the cluster that `settings` names match [`topic_plan`]; returns
/// what changed, per topic.
#[cfg(feature = "kafka")]
pub async fn apply(settings: &KafkaSettings) -> crate::Result<Vec<(String, Vec<TopicChange>)>> {
    super::KafkaLog::connect(settings.clone())?.apply_topic_plan(&topic_plan(settings)).await
}

/// A build without the `kafka` feature (`make run`'s) says so.
#[cfg(not(feature = "kafka"))]
pub async fn apply(_: &KafkaSettings) -> crate::Result<Vec<(String, Vec<TopicChange>)>> {
    Err(crate::settings::no_kafka_adapter())
}

/// A topic as the cluster has it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ObservedTopic {
    pub partitions: i32,
    /// Each configuration key's effective value, defaults included.
    pub configs: BTreeMap<String, String>,
}

/// What `apply` does to one topic to make it match its spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TopicChange {
    Create,
    /// Raise the partition count (Kafka cannot lower it).
    AddPartitions {
        from: i32,
        to: i32,
    },
    /// The topic has more partitions than the plan: left as it is.
    MorePartitionsThanPlanned {
        have: i32,
        planned: i32,
    },
    /// Set these configuration keys: (key, what the topic has, the plan's).
    Configure(Vec<(&'static str, Option<String>, String)>),
}

impl fmt::Display for TopicChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TopicChange::Create => write!(f, "created"),
            TopicChange::AddPartitions { from, to } => write!(f, "partitions {from} → {to}"),
            TopicChange::MorePartitionsThanPlanned { have, planned } => {
                write!(f, "keeps its {have} partitions (the plan has {planned}; Kafka cannot remove partitions)")
            }
            TopicChange::Configure(keys) => {
                let keys: Vec<String> = keys
                    .iter()
                    .map(|(key, from, to)| format!("{key} {} → {to}", from.as_deref().unwrap_or("(unset)")))
                    .collect();
                write!(f, "{}", keys.join(", "))
            }
        }
    }
}

/// The changes that make `observed` (or no topic) match `spec`; none when
/// it already does.
pub fn changes(spec: &TopicSpec, observed: Option<&ObservedTopic>) -> Vec<TopicChange> {
    let Some(observed) = observed else { return vec![TopicChange::Create] };
    let mut changes = Vec::new();
    if observed.partitions < spec.partitions {
        changes.push(TopicChange::AddPartitions { from: observed.partitions, to: spec.partitions });
    } else if observed.partitions > spec.partitions {
        changes.push(TopicChange::MorePartitionsThanPlanned { have: observed.partitions, planned: spec.partitions });
    }
    let differing: Vec<(&'static str, Option<String>, String)> = spec
        .configs
        .iter()
        .filter(|(key, value)| observed.configs.get(**key) != Some(*value))
        .map(|(key, value)| (*key, observed.configs.get(*key).cloned(), value.clone()))
        .collect();
    if !differing.is_empty() {
        changes.push(TopicChange::Configure(differing));
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> KafkaSettings {
        KafkaSettings { namespace: "staging.".to_owned(), partitions: 8, replication_factor: 3, ..Default::default() }
    }

    #[test]
    fn every_topic_is_kept_forever_but_the_dead_letters_and_none_is_compacted() {
        let plan = topic_plan(&settings());
        assert_eq!(plan.len(), topics::ALL.len());
        for spec in &plan {
            assert!(spec.name.starts_with("staging.wmeter."), "{}", spec.name);
            assert_eq!((spec.partitions, spec.replication_factor), (8, 3));
            assert_eq!(spec.configs["cleanup.policy"], "delete");
            assert_eq!(spec.configs["min.insync.replicas"], "2");
            let forever = spec.name != format!("staging.{}", topics::DEAD_LETTERS);
            assert_eq!(spec.configs["retention.ms"] == "-1", forever, "{}", spec.name);
        }
        let single = KafkaSettings { replication_factor: 1, ..settings() };
        assert_eq!(spec(&single, "staging.wmeter.readings.v1").configs["min.insync.replicas"], "1");
        assert_eq!(spec(&settings(), "staging.wmeter.dead-letters.v1").configs["retention.ms"], "2592000000");
    }

    #[test]
    fn a_topic_that_matches_needs_nothing_and_one_that_differs_is_told_what() {
        let spec = spec(&settings(), "staging.wmeter.readings.v1");
        assert_eq!(changes(&spec, None), [TopicChange::Create]);
        let matching = ObservedTopic {
            partitions: 8,
            configs: spec.configs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect(),
        };
        assert!(changes(&spec, Some(&matching)).is_empty());

        let mut configs = matching.configs.clone();
        configs.insert("retention.ms".to_owned(), "604800000".to_owned());
        configs.remove("min.insync.replicas");
        configs.insert("segment.bytes".to_owned(), "1".to_owned());
        let drifted = ObservedTopic { partitions: 4, configs };
        let found = changes(&spec, Some(&drifted));
        assert_eq!(
            found,
            [
                TopicChange::AddPartitions { from: 4, to: 8 },
                TopicChange::Configure(vec![
                    ("min.insync.replicas", None, "2".to_owned()),
                    ("retention.ms", Some("604800000".to_owned()), "-1".to_owned()),
                ]),
            ]
        );
        assert_eq!(found[1].to_string(), "min.insync.replicas (unset) → 2, retention.ms 604800000 → -1");

        let wider = ObservedTopic { partitions: 12, ..matching };
        assert_eq!(changes(&spec, Some(&wider)), [TopicChange::MorePartitionsThanPlanned { have: 12, planned: 8 }]);
    }
}
