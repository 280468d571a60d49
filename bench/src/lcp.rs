//! Largest Contentful Paint of the overview in headless Chromium, on a
//! small seeded network, each run from a cold cache (`bench/lcp.mjs`).

use std::{path::PathBuf, process::Command};

use anyhow::{Context, ensure};

use crate::{
    Common, report,
    server::{ADMIN, Seed, Server},
};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    common: Common,
    /// The built dashboard.
    #[arg(long, default_value = "web/dist")]
    dashboard: PathBuf,
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    ensure!(args.dashboard.join("index.html").exists(), "{} holds no built dashboard", args.dashboard.display());
    let seed = Seed { gateways: 8, meters: 60, readings: 1000 };
    let server = Server::start(&args.common.wmeter, Some(seed), Some(&args.dashboard)).await?;
    let output = Command::new("node")
        .args(["bench/lcp.mjs", &server.url, ADMIN.0, ADMIN.1, &args.common.runs.to_string()])
        .output()
        .context("running node bench/lcp.mjs")?;
    ensure!(output.status.success(), "bench/lcp.mjs: {}", String::from_utf8_lossy(&output.stderr));
    let lcps: Vec<f64> = serde_json::from_slice(&output.stdout).context("bench/lcp.mjs printed no list of LCPs")?;
    report::row("web: LCP of the overview, cold cache, headless Chromium", "ms", &lcps, None, false, "≤ 1.0 s");
    Ok(())
}
