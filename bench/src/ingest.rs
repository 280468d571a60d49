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
    publisher::{self, Broker, Clock},
    report,
    server::Server,
    writer::Turns,
};

/// The arguments of both ingest figures, embedded and distributed.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub load: Load,
    /// How long the latency at half of the max rate is sampled, per run.
    #[arg(long, default_value_t = 10)]
    pub latency_seconds: u64,
}

/// Message ids of the latency phase's load and probes: past the rate
/// phase's (from 1) and the warm-up's (from 1,000,000,000).
const LOAD_IDS: u64 = 2_000_000_000;
const PROBE_IDS: u64 = 3_000_000_000;

pub async fn run(args: Args) -> anyhow::Result<()> {
    args.load.validate()?;
    let Load { gateways, meters_per_gateway, messages } = args.load;
    let (mut raw, mut ours, mut rss, mut latency) = (Vec::new(), Vec::new(), Vec::new(), Latencies::default());
    let (mut with_rollups, mut without) = (Vec::new(), Vec::new());
    // The share of the latency phase the SQLite writer was held, and the
    // sites that held it in the last run.
    let (mut writer_busy, mut writer_sites) = (Vec::new(), String::new());
    for run in 1..=args.common.runs {
        let server = Server::start(&args.common.wmeter, None, None).await?;
        let fleet = Fleet::register(server.sign_in().await?, server.broker(), gateways, meters_per_gateway).await?;
        raw.push(raw_rate(&server.raw_broker(), &fleet, messages).await?);
        let started = Instant::now();
        let first = ingest_rate(&fleet, messages).await?;
        ours.push(first.per_second);
        with_rollups.push(f64::from(messages) / rolled_up(&fleet, messages, started).await?);
        rss.push(server.peak_rss_mib()?);
        let (before, phase) = (Turns::read(&fleet.api.client, &server.url).await?, Instant::now());
        latency.extend(latencies_at(&fleet, ours[run - 1] / 2.0, Duration::from_secs(args.latency_seconds)).await?);
        let turns = Turns::read(&fleet.api.client, &server.url).await?.since(&before);
        writer_busy.push(100.0 * turns.held() / phase.elapsed().as_secs_f64());
        writer_sites = turns.top(3);
        let warned = server.warnings();
        drop(server);
        let off = [("WMETER_ANALYTICS__ROLLUPS", "false".to_owned())];
        let server = Server::start_with(&args.common.wmeter, None, None, &off).await?;
        let fleet = Fleet::register(server.sign_in().await?, server.broker(), gateways, meters_per_gateway).await?;
        let second = ingest_rate(&fleet, messages).await?;
        without.push(second.per_second);
        eprintln!(
            "run {run}: raw {:.0}/s, ingest {first} ({:.0}/s with the rollups caught up; {second} without them), \
             peak RSS {:.1} MiB",
            raw[run - 1],
            with_rollups[run - 1],
            rss[run - 1]
        );
        for line in warned.iter().chain(&server.warnings()) {
            eprintln!("run {run}: the server warned: {line}");
        }
    }
    let meters = if meters_per_gateway == 1 { "meter" } else { "meters" };
    let fleet = format!("{gateways} gateways of {meters_per_gateway} {meters}");
    let what = format!("MQTT → committed projection, embedded ({messages} readings, {fleet})");
    report::row(&what, "events/s", &ours, Some(&raw), true, "≥ 50,000/s and ≥ 0.2×");
    let what = "… until the rollups and leak detectors have every reading too, against the same with them off";
    report::row(what, "events/s", &with_rollups, Some(&without), true, "≥ 0.85× (rollups cost ≤ 15 %)");
    report::row("peak RSS of `wmeter serve` under that load", "MiB", &rss, None, false, "≤ 200 MB");
    latency.report(&latency_figure(&format!("embedded, {fleet}"), &ours), "≤ 250 ms (issue 23)");
    let what = format!("… the SQLite writer held during that phase; longest, last run: {writer_sites}");
    report::row(&what, "%", &writer_busy, None, false, "—");
    Ok(())
}

/// Seconds from `started` until the network's rollups count `messages`
/// readings more than before the run (the readings are timed now).
async fn rolled_up(fleet: &Fleet, messages: u32, started: Instant) -> anyhow::Result<f64> {
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        let series = fleet.api.get("/api/rollups?bucket=day").await?;
        let counted: u64 =
            series["points"].as_array().context("a series")?.iter().filter_map(|p| p["readings"].as_u64()).sum();
        if counted >= u64::from(messages) {
            return Ok(started.elapsed().as_secs_f64());
        }
        ensure!(
            Instant::now() < deadline,
            "the rollups counted only {counted} of {messages} readings within 10 minutes"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Readings through the broker to one subscriber, in messages a second,
/// signed in as `broker` says (a login that may use `bench/raw/#`).
pub async fn raw_rate(broker: &Broker, fleet: &Fleet, messages: u32) -> anyhow::Result<f64> {
    let (client, mut eventloop) = AsyncClient::new(publisher::options(broker, "bench-raw-subscriber"), 1000);
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
        .readings(0..fleet.gateways.len(), messages, 1)
        .into_iter()
        .map(|(serial, payloads)| (format!("raw-{serial}"), format!("bench/raw/{serial}"), payloads))
        .collect();
    let started = Instant::now();
    publisher::publish_all(broker, connections, None).await?;
    tokio::time::timeout(Duration::from_secs(300), subscriber).await.context("the subscriber stalled")???;
    Ok(f64::from(messages) / started.elapsed().as_secs_f64())
}

/// An ingest run: its rate, and when its publishers had every
/// acknowledgement, which tells a slow run's stall apart: before, the
/// broker's or the publishers'; after, the projections'.
pub struct Run {
    pub per_second: f64,
    pub acknowledged: Duration,
    pub counted: Duration,
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (acknowledged, counted) = (self.acknowledged.as_secs_f64(), self.counted.as_secs_f64());
        write!(f, "{:.0}/s (acknowledged in {acknowledged:.2} s, counted in {counted:.2} s)", self.per_second)
    }
}

/// Readings from the gateways until the API counts them all.
pub async fn ingest_rate(fleet: &Fleet, messages: u32) -> anyhow::Result<Run> {
    let before = fleet.records().await?;
    let started = Instant::now();
    let readings = fleet.readings(0..fleet.gateways.len(), messages, 1);
    publisher::publish_all(&fleet.broker, fleet.connections(readings), None).await?;
    let acknowledged = started.elapsed();
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        let counted = fleet.records().await? - before;
        if counted >= u64::from(messages) {
            if counted > u64::from(messages) {
                bail!("counted {counted} readings of {messages} published");
            }
            let counted = started.elapsed();
            return Ok(Run { per_second: f64::from(messages) / counted.as_secs_f64(), acknowledged, counted });
        }
        ensure!(Instant::now() < deadline, "only {counted} of {messages} readings counted within 10 minutes");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Each probe's latencies, in milliseconds from its publish.
#[derive(Debug, Default)]
pub struct Latencies {
    /// Until ingest committed it: its gateway's newest activity shows it.
    pub committed: Vec<f64>,
    /// Until the API counts it in its gateway's `recordsCount`, which the
    /// registry's projection keeps.
    pub visible: Vec<f64>,
}

impl Latencies {
    pub fn extend(&mut self, more: Latencies) {
        self.committed.extend(more.committed);
        self.visible.extend(more.visible);
    }

    /// The latency row, and the row of its first part: until ingest
    /// committed the reading (the rest is the projection's way to the API).
    pub fn report(&self, figure: &str, goal: &str) {
        report::row(figure, "ms", &self.visible, None, false, goal);
        let part = "… of which until ingest committed it (its gateway's newest activity in the API)";
        report::row(part, "ms", &self.committed, None, false, "—");
    }
}

/// Event → visible-in-the-API latencies while the fleet publishes `rate`
/// readings a second for `period`. Every gateway but the first carries the
/// load; the first sends probes, one at a time: a reading, then its
/// gateway's newest activity read through the API until it shows it, then
/// its `recordsCount` until it counts it.
pub async fn latencies_at(fleet: &Fleet, rate: f64, period: Duration) -> anyhow::Result<Latencies> {
    ensure!(fleet.gateways.len() >= 2, "the latency needs two gateways: one to probe, the others to load");
    let loaded = fleet.gateways.len() - 1;
    let messages = (rate * period.as_secs_f64()).ceil() as u32;
    let readings = fleet.readings(1..fleet.gateways.len(), messages, LOAD_IDS);
    let pace = rate / loaded as f64;
    let broker = fleet.broker.clone();
    let load = tokio::spawn(async move {
        let connections = readings
            .into_iter()
            .map(|(serial, payloads)| (format!("load-{serial}"), format!("wmeter/v1/gw/{serial}/reading"), payloads));
        publisher::publish_all(&broker, connections.collect(), Some(pace)).await
    });

    let (serial, meters) = &fleet.gateways[0];
    let activity = fleet.newest_activity_of(serial).await?;
    let probe = publisher::Connection::open(&fleet.broker, "bench-probe");
    let topic = format!("wmeter/v1/gw/{serial}/reading");
    let (mut latencies, mut clock) = (Latencies::default(), Clock::default());
    let started = Instant::now();
    let mut id = PROBE_IDS;
    while started.elapsed() < period {
        id += 1;
        let before = fleet.records_of(serial).await?;
        let newest = fleet.api.get(&activity).await?;
        let (sent, sent_at) = (Instant::now(), chrono::Utc::now());
        probe
            .client
            .publish(&topic, QoS::AtLeastOnce, false, crate::fleet::reading(id, &meters[0]).stamped(&mut clock))
            .await?;
        let committed = async || anyhow::Ok(fleet.api.get(&activity).await? != newest);
        let committed = ms_until(sent, committed).await.with_context(|| format!("probe {id} committed"))?;
        let visible = async || anyhow::Ok(fleet.records_of(serial).await? > before);
        let visible = ms_until(sent, visible).await.with_context(|| format!("probe {id} visible"))?;
        if visible > SLOW_PROBE_MS {
            // To be found in the servers' logs (WM_BENCH_LOGS).
            eprintln!("slow probe {id}, sent {sent_at:?}: committed in {committed:.0} ms, visible in {visible:.0} ms");
        }
        latencies.committed.push(committed);
        latencies.visible.push(visible);
    }
    load.await??;
    Ok(latencies)
}

/// A probe slower than this is reported with the time it was sent.
const SLOW_PROBE_MS: f64 = 1_000.0;

/// Milliseconds from `sent` until `done`, asked every millisecond, says so;
/// an error past 60 s.
async fn ms_until(sent: Instant, done: impl AsyncFn() -> anyhow::Result<bool>) -> anyhow::Result<f64> {
    while !done().await? {
        ensure!(sent.elapsed() < Duration::from_secs(60), "not within 60 s");
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    Ok(sent.elapsed().as_secs_f64() * 1000.0)
}

/// The latency row's label: the rate it was sampled at.
pub fn latency_figure(mode: &str, rates: &[f64]) -> String {
    let half = report::quantile(rates, 0.5) / 2.0;
    format!("MQTT → visible in the API, {mode}, p99 at half of max rate ({half:.0} events/s), one probe at a time")
}
