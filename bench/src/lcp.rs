//! Largest Contentful Paint of the overview in headless Chromium, on a
//! small seeded network, each run from a cold cache (`bench/lcp.mjs`);
//! with `--line`, over an emulated line of that speed and round trip.

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
    /// An emulated line, `MBITS,RTT_MS` (e.g. `20,40`): its speed in Mbit/s
    /// both ways and its round trip in ms. By default the loopback.
    #[arg(long, value_parser = parse_line)]
    line: Option<Line>,
}

#[derive(Debug, Clone, Copy)]
struct Line {
    mbits: f64,
    rtt_ms: u32,
}

fn parse_line(text: &str) -> Result<Line, String> {
    let bad = || format!("`{text}` is no line: expected MBITS,RTT_MS, e.g. 20,40");
    let (mbits, rtt) = text.split_once(',').ok_or_else(bad)?;
    let mbits: f64 = mbits.trim().parse().map_err(|_| bad())?;
    let rtt_ms = rtt.trim().parse().map_err(|_| bad())?;
    if !(mbits.is_finite() && mbits > 0.0) {
        return Err(bad());
    }
    Ok(Line { mbits, rtt_ms })
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    ensure!(args.dashboard.join("index.html").exists(), "{} holds no built dashboard", args.dashboard.display());
    let seed = Seed { gateways: 8, meters: 60, readings: 1000 };
    let server = Server::start(&args.common.wmeter, Some(seed), Some(&args.dashboard)).await?;
    let mut script = vec![server.url.clone(), ADMIN.0.to_owned(), ADMIN.1.to_owned(), args.common.runs.to_string()];
    script.extend(args.line.iter().flat_map(|line| [line.mbits.to_string(), line.rtt_ms.to_string()]));
    let output =
        Command::new("node").arg("bench/lcp.mjs").args(&script).output().context("running node bench/lcp.mjs")?;
    ensure!(output.status.success(), "bench/lcp.mjs: {}", String::from_utf8_lossy(&output.stderr));
    let lcps: Vec<f64> = serde_json::from_slice(&output.stdout).context("bench/lcp.mjs printed no list of LCPs")?;
    match args.line {
        None => {
            report::row("web: LCP of the overview, cold cache, headless Chromium", "ms", &lcps, None, false, "≤ 1.0 s")
        }
        Some(Line { mbits, rtt_ms }) => {
            let figure =
                format!("web: LCP over a line of {mbits} Mbit/s and {rtt_ms} ms, cold cache, headless Chromium");
            report::row(&figure, "ms", &lcps, None, false, "—");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_line;

    #[test]
    fn a_line_is_its_speed_and_round_trip() {
        let line = parse_line("20,40").unwrap();
        assert_eq!((line.mbits, line.rtt_ms), (20.0, 40));
        assert_eq!(parse_line(" 2.5 , 150 ").unwrap().mbits, 2.5);
        for bad in ["20", "20,", ",40", "fast,40", "20,-1", "0,40", "-5,40", "NaN,40", "inf,40"] {
            let error = parse_line(bad).unwrap_err();
            assert!(error.contains("MBITS,RTT_MS"), "{bad}: {error}");
        }
    }
}
