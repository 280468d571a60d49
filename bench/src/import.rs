//! CSV import of gateways (docs/devices-csv.md): the dry run and the apply
//! of a file of new gateways, each on a fresh `wmeter serve`, against the
//! issue's goal (10,000 rows under 10 s). No raw reference: the figure is
//! the operator's wait, end to end over HTTP.

use std::time::Instant;

use anyhow::ensure;
use serde_json::Value;

use crate::{Common, report, server::Server};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    common: Common,
    /// Rows of the file.
    #[arg(long, default_value_t = 10_000)]
    rows: u32,
}

/// A file of `rows` new gateways.
fn file(rows: u32) -> String {
    let mut csv = String::from("serialNumber,imei,phoneNumber,bleAddress,macAddress,latitude,longitude\r\n");
    for n in 0..rows {
        let b = n.to_be_bytes();
        csv.push_str(&format!(
            "im{n:08},{n:015},07{n:08},D0:00:{:02X}:{:02X}:{:02X}:{:02X},E0:00:{:02X}:{:02X}:{:02X}:{:02X},48.85,2.29\r\n",
            b[0], b[1], b[2], b[3], b[0], b[1], b[2], b[3]
        ));
    }
    csv
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    let csv = file(args.rows);
    let (mut dry, mut apply) = (Vec::new(), Vec::new());
    for _ in 0..args.common.runs {
        let mut server = Server::start(&args.common.wmeter, None, None).await?;
        let api = server.sign_in().await?;
        for (apply_it, times) in [(false, &mut dry), (true, &mut apply)] {
            let started = Instant::now();
            let response = api
                .client
                .post(format!("{}/api/devices/import/gateways{}", api.url, if apply_it { "?apply=true" } else { "" }))
                .bearer_auth(&api.token)
                .header("content-type", "text/csv")
                .body(csv.clone())
                .send()
                .await?;
            ensure!(response.status() == 200, "import: {}", response.text().await?);
            let report: Value = response.json().await?;
            times.push(started.elapsed().as_secs_f64());
            let expected = if apply_it { "registered" } else { "valid" };
            ensure!(report[expected] == args.rows, "import: {report}");
        }
        server.stop();
    }
    let what = |step: &str| format!("import: {} gateways from CSV, {step}", args.rows);
    report::row(&what("dry run"), "s", &dry, None, false, "< 10 s");
    report::row(&what("applied"), "s", &apply, None, false, "< 10 s (10,000 rows)");
    Ok(())
}
