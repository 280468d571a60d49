//! `wm-bench`: the harness behind `make bench` and `make bench-smoke`.
//!
//! Each figure is measured beside its raw reference, on the same machine
//! in the same run, and printed as Markdown table rows for
//! `bench/RESULTS.md` (DESIGN §10): median and p99 over the runs, and the
//! ratio of the medians.

mod analytics;
mod api;
mod cpu;
mod distributed;
mod fleet;
mod import;
mod ingest;
mod lcp;
mod load;
mod projection;
mod publisher;
mod report;
mod seeding;
mod server;
mod sse;
mod writer;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "wm-bench", about = "w-meter's benchmark harness")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// MQTT → committed projection in the embedded mode, against the raw
    /// publish → subscribe rate of the same broker with the same client;
    /// and the peak RSS of `wmeter serve` under that load.
    Ingest(ingest::Args),
    /// MQTT → committed projection in the distributed mode, against the raw
    /// publish → subscribe rate through its Mosquitto.
    Distributed(distributed::DistributedArgs),
    /// API latency at a seeded scale against the bare storage calls, and
    /// mixed-read throughput against a minimal actix handler.
    Api(api::Args),
    /// LCP of the overview in headless Chromium.
    Lcp(lcp::Args),
    /// A CSV import of new gateways: the dry run, then the apply.
    Import(import::Args),
    /// Projection writes against batched inserts of the same rows.
    Projection(projection::Args),
    /// SSE fan-out to many open streams, against a bare actix SSE handler.
    Sse(sse::Args),
    /// The bare SSE handler `sse` measures against (started by `sse`).
    #[command(hide = true)]
    SseReference {
        #[arg(long)]
        port: u16,
    },
}

#[derive(Debug, clap::Args)]
struct Common {
    /// The `wmeter` binary to measure (a release build for real figures).
    #[arg(long, default_value = "target/release/wmeter")]
    wmeter: PathBuf,
    /// How many times each figure is measured.
    #[arg(long, default_value_t = 3)]
    runs: usize,
}

// The server's allocator, so that a bare storage call runs on the same
// SQLite as the server's (wm_alloc).
#[global_allocator]
static ALLOCATOR: wm_alloc::MiMalloc = wm_alloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    wm_alloc::start()?;
    tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(run(Cli::parse().command))
}

async fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Ingest(args) => ingest::run(args).await,
        Command::Distributed(args) => distributed::run(args).await,
        Command::Api(args) => api::run(args).await,
        Command::Lcp(args) => lcp::run(args).await,
        Command::Import(args) => import::run(args).await,
        Command::Projection(args) => projection::run(args).await,
        Command::Sse(args) => sse::run(args).await,
        Command::SseReference { port } => sse::reference_server(port).await,
    }
}
