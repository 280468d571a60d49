//! `wmeter topics plan|apply`: the Kafka topics as the plan has them
//! (`wm_eventlog::kafka::plan`).

use anyhow::bail;
use wm_eventlog::{
    EventLogSettings,
    kafka::{KafkaSettings, plan},
};

use crate::{cli::TopicsSubcommand, config::Settings};

pub async fn run(settings: &Settings, subcommand: TopicsSubcommand) -> anyhow::Result<()> {
    let EventLogSettings::Kafka(kafka) = &settings.event_log else {
        bail!(
            "event_log.kind is \"embedded\": the topic plan is for Kafka; set event_log.kind = \"kafka\" and \
             event_log.brokers = host:port[,host:port...]"
        );
    };
    match subcommand {
        TopicsSubcommand::Plan => {
            print!("{}", table(kafka));
            Ok(())
        }
        TopicsSubcommand::Apply => {
            kafka.validate()?;
            for (topic, changes) in plan::apply(kafka).await? {
                let said: Vec<String> = changes.iter().map(ToString::to_string).collect();
                let said = if said.is_empty() { "up to date".to_owned() } else { said.join("; ") };
                println!("{topic}: {said}");
            }
            Ok(())
        }
    }
}

/// The plan, one topic a line.
fn table(kafka: &KafkaSettings) -> String {
    let mut out = format!(
        "{:<44}  {:>10}  {:>8}  {:<14}  {:<22}  {}\n",
        "topic", "partitions", "replicas", "cleanup.policy", "retention.ms", "min.insync.replicas"
    );
    for spec in plan::topic_plan(kafka) {
        let retention = &spec.configs["retention.ms"];
        let retention = if retention == "-1" {
            "-1 (forever)".to_owned()
        } else {
            let days = retention.parse::<i64>().unwrap_or(0) / 86_400_000;
            format!("{retention} ({days} days)")
        };
        out.push_str(&format!(
            "{:<44}  {:>10}  {:>8}  {:<14}  {:<22}  {}\n",
            spec.name,
            spec.partitions,
            spec.replication_factor,
            spec.configs["cleanup.policy"],
            retention,
            spec.configs["min.insync.replicas"]
        ));
    }
    out
}
