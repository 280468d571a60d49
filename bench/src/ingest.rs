//! Embedded ingest: MQTT uplinks until they are visible through the API,
//! against the raw publish → subscribe rate through the same broker.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU32, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::{Context, bail, ensure};
use rumqttc::{AsyncClient, Event, Packet, QoS};

use crate::{
    Common,
    fleet::{Fleet, Load},
    publisher, report,
    server::Server,
};

/// The arguments of both ingest figures, embedded and distributed.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub load: Load,
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    args.load.validate()?;
    let Load { gateways, meters_per_gateway, messages } = args.load;
    let (mut raw, mut ours, mut rss) = (Vec::new(), Vec::new(), Vec::new());
    for run in 1..=args.common.runs {
        let server = Server::start(&args.common.wmeter, None, None).await?;
        let fleet = Fleet::register(server.sign_in().await?, server.broker(), gateways, meters_per_gateway).await?;
        raw.push(raw_rate(&fleet, messages).await?);
        ours.push(ingest_rate(&fleet, messages).await?);
        rss.push(server.peak_rss_mib()?);
        eprintln!(
            "run {run}: raw {:.0}/s, ingest {:.0}/s, peak RSS {:.1} MiB",
            raw[run - 1],
            ours[run - 1],
            rss[run - 1]
        );
    }
    let what = format!("MQTT → committed projection, embedded ({} readings)", messages);
    report::row(&what, "events/s", &ours, Some(&raw), true, "≥ 50,000/s and ≥ 0.5×");
    report::row("peak RSS of `wmeter serve` under that load", "MiB", &rss, None, false, "≤ 200 MB");
    Ok(())
}

/// Readings through the broker to one subscriber, in messages a second.
pub async fn raw_rate(fleet: &Fleet, messages: u32) -> anyhow::Result<f64> {
    let (client, mut eventloop) = AsyncClient::new(publisher::options(&fleet.broker, "bench-raw-subscriber"), 1000);
    client.subscribe("bench/raw/#", QoS::AtLeastOnce).await?;
    loop {
        if let Event::Incoming(Packet::SubAck(_)) = eventloop.poll().await? {
            break;
        }
    }
    let received = Arc::new(AtomicU32::new(0));
    let counter = received.clone();
    let subscriber = tokio::spawn(async move {
        while counter.load(Ordering::Relaxed) < messages {
            if let Event::Incoming(Packet::Publish(_)) = eventloop.poll().await? {
                counter.fetch_add(1, Ordering::Relaxed);
            }
        }
        anyhow::Ok(())
    });
    let connections = fleet
        .readings(messages)
        .into_iter()
        .map(|(serial, payloads)| (format!("raw-{serial}"), format!("bench/raw/{serial}"), payloads))
        .collect();
    let started = Instant::now();
    publisher::publish_all(&fleet.broker, connections).await?;
    tokio::time::timeout(Duration::from_secs(300), subscriber).await.context("the subscriber stalled")???;
    Ok(f64::from(messages) / started.elapsed().as_secs_f64())
}

/// Readings from the gateways until the API counts them all, in events a second.
pub async fn ingest_rate(fleet: &Fleet, messages: u32) -> anyhow::Result<f64> {
    let before = fleet.records().await?;
    let started = Instant::now();
    publisher::publish_all(&fleet.broker, fleet.connections(fleet.readings(messages))).await?;
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        let counted = fleet.records().await? - before;
        if counted >= u64::from(messages) {
            if counted > u64::from(messages) {
                bail!("counted {counted} readings of {messages} published");
            }
            return Ok(f64::from(messages) / started.elapsed().as_secs_f64());
        }
        ensure!(Instant::now() < deadline, "only {counted} of {messages} readings counted within 10 minutes");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
