//! Distributed ingest: MQTT uplinks through Mosquitto to two ingest
//! replicas, over Kafka and PostgreSQL, until the registry shows them
//! through the gateway; against Mosquitto's own publish → subscribe rate
//! with the same client. The deployment is `wm_test_support::cluster`, on
//! the servers `make bench` starts (`WM_TEST_PG_URL`, `WM_TEST_KAFKA_BROKERS`,
//! `WM_TEST_MOSQUITTO`).

use anyhow::{Context, ensure};
use wm_test_support::cluster::{Cluster, GATEWAY_LOGIN};

use crate::{
    Common,
    fleet::{Api, Fleet, MAX_GATEWAYS},
    ingest::{ingest_rate, raw_rate},
    publisher::Broker,
    report,
    server::ADMIN,
};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    common: Common,
    #[arg(long, default_value_t = 20)]
    gateways: u32,
    #[arg(long, default_value_t = 10)]
    meters_per_gateway: u32,
    #[arg(long, default_value_t = 100_000)]
    messages: u32,
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    ensure!(args.gateways > 0 && args.meters_per_gateway > 0 && args.messages > 0, "every count must be positive");
    ensure!(args.gateways <= MAX_GATEWAYS, "at most {MAX_GATEWAYS} gateways: one page of the list counts them");
    let (mut raw, mut ours) = (Vec::new(), Vec::new());
    for run in 1..=args.common.runs {
        let cluster = Cluster::start(&args.common.wmeter)
            .await
            .context("the distributed mode needs WM_TEST_PG_URL, WM_TEST_KAFKA_BROKERS and WM_TEST_MOSQUITTO")?;
        cluster.add_user(ADMIN.0, ADMIN.1, "admin");
        let api = Api::sign_in(&cluster.url("gateway"), ADMIN).await?;
        let broker = Broker {
            port: cluster.mosquitto.addr.port(),
            username: GATEWAY_LOGIN.0.to_owned(),
            password: GATEWAY_LOGIN.1.to_owned(),
        };
        let fleet = Fleet::register(api, broker, args.gateways, args.meters_per_gateway).await?;
        raw.push(raw_rate(&fleet, args.messages).await?);
        ours.push(ingest_rate(&fleet, args.messages).await?);
        eprintln!("distributed run {run}: raw {:.0}/s, ingest {:.0}/s", raw[run - 1], ours[run - 1]);
    }
    let what = format!("MQTT → committed projection, distributed: 2 ingest replicas ({} readings)", args.messages);
    report::row(&what, "events/s", &ours, Some(&raw), true, "≥ 20,000/s");
    Ok(())
}
