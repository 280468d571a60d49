//! Distributed ingest: MQTT uplinks through Mosquitto to 1, 2 or 4 ingest
//! replicas, over Kafka and PostgreSQL, until the registry shows them
//! through the gateway; against Mosquitto's own publish → subscribe rate
//! with the same client. The deployment is `wm_test_support::cluster`, on
//! the servers `make bench` starts (`WM_TEST_PG_URL`, `WM_TEST_KAFKA_BROKERS`,
//! `WM_TEST_MOSQUITTO`), all on this machine's cores: the CPU each program
//! spent per reading in the rate phase ([`cpu`]) says what share of them
//! w-meter had, and what rate they allow.

use std::time::Duration;

use anyhow::Context;
use wm_test_support::cluster::{Cluster, GATEWAY_LOGIN};

use crate::{
    cpu::{self, Sample},
    fleet::{Api, Fleet, Load},
    ingest::{Args, Latencies, ingest_rate, latencies_at, latency_figure, raw_rate},
    publisher::Broker,
    report,
    server::ADMIN,
};

/// The distributed figures' arguments: the ingest figures', and how many
/// ingest replicas to measure.
#[derive(Debug, clap::Args)]
pub struct DistributedArgs {
    #[command(flatten)]
    pub ingest: Args,
    /// Ingest replica counts, each measured on its own (1 to 4); the
    /// latency at half of max rate is measured with the last.
    #[arg(long, value_delimiter = ',', default_value = "2")]
    pub replicas: Vec<usize>,
}

pub async fn run(args: DistributedArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        !args.replicas.is_empty() && args.replicas.iter().all(|n| (1..=4).contains(n)),
        "--replicas: 1 to 4 each"
    );
    let last = args.replicas.len() - 1;
    for (i, replicas) in args.replicas.iter().enumerate() {
        measure(&args.ingest, *replicas, i == last).await?;
    }
    Ok(())
}

async fn measure(args: &Args, replicas: usize, with_latency: bool) -> anyhow::Result<()> {
    args.load.validate()?;
    let Load { gateways, meters_per_gateway, messages } = args.load;
    let (mut raw, mut ours, mut latency) = (Vec::new(), Vec::new(), Latencies::default());
    let mut spent = Vec::new();
    for run in 1..=args.common.runs {
        let cluster = Cluster::with_ingest_replicas(&args.common.wmeter, replicas)
            .await
            .context("the distributed mode needs WM_TEST_PG_URL, WM_TEST_KAFKA_BROKERS and WM_TEST_MOSQUITTO")?;
        cluster.add_user(ADMIN.0, ADMIN.1, "admin");
        let api = Api::sign_in(&cluster.url("gateway"), ADMIN).await?;
        let broker = Broker {
            port: cluster.mosquitto.addr.port(),
            username: GATEWAY_LOGIN.0.to_owned(),
            password: GATEWAY_LOGIN.1.to_owned(),
        };
        let fleet = Fleet::register(api, broker, gateways, meters_per_gateway).await?;
        raw.push(raw_rate(&fleet.broker, &fleet, messages).await?);
        let before = Sample::now();
        ours.push(ingest_rate(&fleet, messages).await?.per_second);
        spent.push(Sample::now().since(&before));
        if with_latency {
            let period = Duration::from_secs(args.latency_seconds);
            latency.extend(latencies_at(&fleet, ours[run - 1] / 2.0, period).await?);
        }
        eprintln!(
            "distributed run {run}, {replicas} replicas: raw {:.0}/s, ingest {:.0}/s",
            raw[run - 1],
            ours[run - 1]
        );
    }
    let what = format!("MQTT → committed projection, distributed: {replicas} ingest replica(s) ({messages} readings)");
    report::row(&what, "events/s", &ours, Some(&raw), true, "≥ 30,000/s");
    cpu::report(&format!("distributed, {replicas} ingest replica(s)"), &spent, messages);
    if with_latency {
        let what = format!("{}, {replicas} ingest replica(s)", latency_figure("distributed", &ours));
        latency.report(&what, "—");
    }
    Ok(())
}
