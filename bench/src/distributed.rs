//! Distributed ingest: MQTT uplinks through Mosquitto to two ingest
//! replicas, over Kafka and PostgreSQL, until the registry shows them
//! through the gateway; against Mosquitto's own publish → subscribe rate
//! with the same client. The deployment is `wm_test_support::cluster`, on
//! the servers `make bench` starts (`WM_TEST_PG_URL`, `WM_TEST_KAFKA_BROKERS`,
//! `WM_TEST_MOSQUITTO`).

use std::time::Duration;

use anyhow::Context;
use wm_test_support::cluster::{Cluster, GATEWAY_LOGIN};

use crate::{
    fleet::{Api, Fleet, Load},
    ingest::{Args, ingest_rate, latencies_at, latency_figure, raw_rate},
    publisher::Broker,
    report,
    server::ADMIN,
};

pub async fn run(args: Args) -> anyhow::Result<()> {
    args.load.validate()?;
    let Load { gateways, meters_per_gateway, messages } = args.load;
    let (mut raw, mut ours, mut latency) = (Vec::new(), Vec::new(), Vec::new());
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
        let fleet = Fleet::register(api, broker, gateways, meters_per_gateway).await?;
        raw.push(raw_rate(&fleet.broker, &fleet, messages).await?);
        ours.push(ingest_rate(&fleet, messages).await?);
        let period = Duration::from_secs(args.latency_seconds);
        latency.extend(latencies_at(&fleet, ours[run - 1] / 2.0, period).await?);
        eprintln!("distributed run {run}: raw {:.0}/s, ingest {:.0}/s", raw[run - 1], ours[run - 1]);
    }
    let what = format!("MQTT → committed projection, distributed: 2 ingest replicas ({} readings)", messages);
    report::row(&what, "events/s", &ours, Some(&raw), true, "≥ 20,000/s");
    report::row(&latency_figure("distributed", &ours), "ms", &latency, None, false, "—");
    Ok(())
}
