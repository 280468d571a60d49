//! The API at the seeded scale: latency of list, detail, count, search and
//! activity under concurrent clients, against the storage call each
//! endpoint makes, timed directly under the same load; mixed-read
//! throughput against a minimal actix handler; and the analytics reads and
//! the billing export on the same network (`analytics`); and the seeder's
//! rate against plain loads of the same readings (`seeding`). On SQLite, or
//! with `--postgres` on the servers `make bench` starts; or with
//! `--database` on a database seeded before.

use std::{sync::Arc, time::Duration};

use anyhow::{Context, ensure};
use wm_device_registry::storage::{
    lists::{self, Filter, Page},
    rows::MeterRow,
};
use wm_storage::{Backend, DatabaseSettings, Db};
use wm_telemetry_ingest::storage::reads::{self, Slice};

use crate::{
    Common,
    load::{self, Sample, scatter},
    report,
    server::{Existing, Seed, Seeded, Server},
};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    common: Common,
    #[arg(long, default_value_t = 10_000)]
    gateways: u32,
    #[arg(long, default_value_t = 1_000_000)]
    meters: u32,
    #[arg(long, default_value_t = 5_000_000)]
    readings: u64,
    /// Concurrent clients.
    #[arg(long, default_value_t = 32)]
    clients: usize,
    /// Seconds of load per figure.
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    /// The endpoints measured, each alone and then in turn (all five by
    /// default; one alone, to profile it).
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = ENDPOINTS)]
    endpoints: Vec<Endpoint>,
    /// On a PostgreSQL database and a Kafka namespace of their own
    /// (`WM_TEST_PG_URL`, `WM_TEST_KAFKA_BROKERS`), not on SQLite.
    #[arg(long, conflicts_with = "database")]
    postgres: bool,
    /// Measure this database (`sqlite://…` or `postgres://…`), which
    /// `wmeter seed` loaded before with the counts above, instead of
    /// seeding a fresh one; the seeder's rows are then left out. A seed at
    /// DESIGN §10's scale takes most of an hour, the API's figures minutes.
    #[arg(long)]
    database: Option<String>,
    /// With a PostgreSQL `--database`, the Kafka namespace it was seeded
    /// with (`WMETER_EVENT_LOG__NAMESPACE`), on `WM_TEST_KAFKA_BROKERS`.
    #[arg(long, requires = "database")]
    namespace: Option<String>,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Endpoint {
    List,
    Detail,
    Count,
    Search,
    Activity,
}

const ENDPOINTS: [Endpoint; 5] =
    [Endpoint::List, Endpoint::Detail, Endpoint::Count, Endpoint::Search, Endpoint::Activity];

// The identifiers `wmeter seed` gives device number n.
fn gateway_id(g: u64) -> String {
    format!("5eed0000{g:016x}")
}

fn meter_id(m: u64) -> String {
    format!("5eed0001{m:016x}")
}

impl Endpoint {
    fn name(self) -> &'static str {
        match self {
            Endpoint::List => "list (a page of 20 meters)",
            Endpoint::Detail => "detail (a meter by id)",
            Endpoint::Count => "count (meters)",
            Endpoint::Search => "search (a serial substring)",
            Endpoint::Activity => "activity (a gateway's newest 20)",
        }
    }

    /// Issue 23's goal for it, at a million meters under the bench's 32
    /// clients.
    fn goal(self) -> &'static str {
        match self {
            Endpoint::List | Endpoint::Activity => "p99 ≤ 10 ms",
            Endpoint::Detail | Endpoint::Count => "p99 ≤ 10 ms and ≤ 2×",
            Endpoint::Search => "p99 ≤ 20 ms",
        }
    }

    /// The request for operation `i`, spread over the seeded devices.
    fn path(self, seed: Seed, i: u64) -> String {
        let x = scatter(i);
        match self {
            Endpoint::List => "/api/proxy/wmeters?max=20".to_owned(),
            Endpoint::Detail => format!("/api/proxy/wmeters/{}", meter_id(x % u64::from(seed.meters))),
            Endpoint::Count => "/api/proxy/wmeters/count".to_owned(),
            Endpoint::Search => format!("/api/proxy/search?q={}&radius=0", search_term(seed, x)),
            Endpoint::Activity => {
                format!("/api/proxy/gateways/gateway-activity/{}?max=20", gateway_id(x % u64::from(seed.gateways)))
            }
        }
    }

    /// The storage call the endpoint makes for operation `i`, without HTTP.
    async fn bare(self, db: &Db, seed: Seed, i: u64) -> anyhow::Result<()> {
        let x = scatter(i);
        match self {
            Endpoint::List => {
                let page = Page { max: 20, start: None, reverse: false };
                lists::list::<MeterRow>(db, Filter::All, page).await?;
            }
            Endpoint::Detail => {
                lists::by_id::<MeterRow>(db, &meter_id(x % u64::from(seed.meters))).await?.context("a meter")?;
            }
            Endpoint::Count => {
                lists::count::<MeterRow>(db, Filter::All).await?;
            }
            Endpoint::Search => {
                wm_device_registry::search::search(db, &search_term(seed, x), 0.0).await?;
            }
            Endpoint::Activity => {
                let gateway = gateway_id(x % u64::from(seed.gateways));
                reads::gateway_activity(db, &Slice { equal: vec![("gateway_id", gateway)], before: None, max: 20 })
                    .await?;
            }
        }
        Ok(())
    }
}

/// A meter serial without its last digit: up to ten meters match.
fn search_term(seed: Seed, x: u64) -> String {
    format!("SM{:07}", x % u64::from(seed.meters.div_ceil(10)))
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    ensure!(args.gateways > 0 && args.meters > 0 && args.clients > 0, "every count must be positive");
    ensure!(!args.endpoints.is_empty(), "--endpoints: at least one");
    let endpoints: Arc<[Endpoint]> = args.endpoints.iter().copied().collect();
    let seed = Seed { gateways: args.gateways, meters: args.meters, readings: args.readings };
    let duration = Duration::from_secs(args.seconds);
    let mut server = match &args.database {
        Some(url) => {
            let existing = Existing { url: url.clone(), namespace: args.namespace.clone() };
            Server::start_on_existing(&args.common.wmeter, &existing).await?
        }
        None if args.postgres => Server::start_on_postgres(&args.common.wmeter, Some(seed)).await?,
        None => Server::start(&args.common.wmeter, Some(seed), None).await?,
    };
    let client = wm_http::client::builder().pool_max_idle_per_host(args.clients).build()?;
    let token = Arc::new(server.sign_in().await?.token);
    let base = Arc::new(server.url.clone());

    let http = |endpoints: Arc<[Endpoint]>| {
        let (client, token, base) = (client.clone(), token.clone(), base.clone());
        move |i: u64| {
            let endpoint = endpoints[(i as usize) % endpoints.len()];
            let request = client.get(format!("{base}{}", endpoint.path(seed, i))).bearer_auth(token.as_str());
            async move {
                let response = request.send().await?;
                let ok = response.status().is_success();
                response.bytes().await?;
                Ok(ok)
            }
        }
    };
    let mut ours = Vec::new();
    for &endpoint in endpoints.iter() {
        let one: Arc<[Endpoint]> = Arc::new([endpoint]);
        load::closed_loop(args.clients, Duration::from_secs(1), http(one.clone())).await?; // warm-up
        ours.push(load::closed_loop(args.clients, duration, http(one)).await?);
    }
    let mixed = load::closed_loop(args.clients, duration, http(endpoints.clone())).await?;
    let analytics = crate::analytics::through_http(&server, seed, &client, &token, (args.clients, duration)).await?;
    server.stop();

    let settings = DatabaseSettings { url: server.database_url(), ..DatabaseSettings::default() };
    let db = Arc::new(Db::connect(&settings).await?);
    let mut bare = Vec::new();
    for &endpoint in endpoints.iter() {
        let db = db.clone();
        let op = move |i: u64| {
            let db = db.clone();
            async move { Ok(endpoint.bare(&db, seed, i).await.is_ok()) }
        };
        bare.push(load::closed_loop(args.clients, duration, op).await?);
    }
    let minimal = minimal_handler(&client, args.clients, duration).await?;

    let postgres = db.backend() == Backend::Postgres;
    let backend = if postgres { "PostgreSQL" } else { "SQLite" };
    let seeded_before = if args.database.is_some() { ", seeded before the run" } else { "" };
    let scale = format!(
        "{} gateways, {} meters, {} readings, {backend}{seeded_before}",
        args.gateways, args.meters, args.readings
    );
    for ((endpoint, ours), bare) in endpoints.iter().zip(&ours).zip(&bare) {
        let what = format!("API {}, {} clients, {scale}{}", endpoint.name(), args.clients, ours.failure_note());
        report::row(&what, "ms", &ours.latencies_ms, Some(&bare.latencies_ms), false, endpoint.goal());
    }
    let rate = |s: &Sample| vec![s.per_second()];
    let what = format!(
        "API mixed reads (the {} above in turn), {} clients{}",
        count_word(endpoints.len()),
        args.clients,
        mixed.failure_note()
    );
    report::row(&what, "req/s", &rate(&mixed), Some(&rate(&minimal)), true, "—");
    crate::analytics::report(&db, seed, analytics, (args.clients, duration)).await?;
    db.close().await;
    let seeded = server.seeded.filter(|_| seed.readings > 0);
    // The references load into fresh databases: with the server's gone, they
    // have the disk and the page cache to themselves (at DESIGN §10's scale
    // each database is tens of gigabytes).
    drop(server);
    if let Some(seeded) = seeded {
        seeder_rows(seed, seeded, postgres, &scale).await?;
    }
    Ok(())
}

/// The seeder's rate against multi-row `INSERT`s of the same readings'
/// rows and, on PostgreSQL, `COPY` (`seeding`), each on a fresh database.
async fn seeder_rows(seed: Seed, seeded: Seeded, postgres: bool, scale: &str) -> anyhow::Result<()> {
    let reference = crate::seeding::reference(seed, postgres).await?;
    let ours = [seeded.readings_per_second];
    let what = format!(
        "`wmeter seed`, {scale} (devices at {:.0} a second), against multi-row INSERTs of each reading's rows",
        seeded.devices_per_second
    );
    report::row(&what, "readings/s", &ours, Some(&[reference.multi_row]), true, "—");
    if let Some(copy) = reference.copy {
        let what = format!("`wmeter seed`, {scale}, against COPY of each reading's rows");
        report::row(&what, "readings/s", &ours, Some(&[copy]), true, "—");
    }
    Ok(())
}

/// "one" to "five", as the mixed row's label counts the endpoints.
fn count_word(n: usize) -> &'static str {
    ["none", "one", "two", "three", "four", "five"].get(n).copied().unwrap_or("several")
}

/// Requests a second to an actix handler that answers a constant, with the
/// same client and load: what HTTP alone costs on this machine.
async fn minimal_handler(client: &reqwest::Client, clients: usize, duration: Duration) -> anyhow::Result<Sample> {
    use actix_web::{App, HttpResponse, HttpServer, web};
    let server = HttpServer::new(|| {
        App::new().route("/count", web::get().to(|| async { HttpResponse::Ok().json(serde_json::json!({"count": 1})) }))
    })
    .disable_signals()
    .bind(("127.0.0.1", 0))?;
    let url = format!("http://{}/count", server.addrs()[0]);
    let running = server.run();
    let handle = running.handle();
    tokio::spawn(running);
    let client = client.clone();
    let sample = load::closed_loop(clients, duration, move |_| {
        let request = client.get(&url);
        async move {
            let response = request.send().await?;
            let ok = response.status().is_success();
            response.bytes().await?;
            Ok(ok)
        }
    })
    .await;
    handle.stop(true).await;
    sample
}
