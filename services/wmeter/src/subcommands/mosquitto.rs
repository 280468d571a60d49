//! `wmeter mosquitto`: writes Mosquitto's password and ACL files from the
//! registry (docs/device-plane.md), once or every `--watch` seconds, and
//! makes Mosquitto reload them when they change.

use std::{path::Path, time::Duration};

use anyhow::Context;
use chrono::Utc;
use wm_storage::Db;

use crate::{cli::MosquittoArgs, config::Settings, mosquitto, output::say};

pub async fn run(settings: Settings, args: MosquittoArgs) -> anyhow::Result<()> {
    let db = Db::connect(&settings.database).await.context("database")?;
    let stop = tokio_util::sync::CancellationToken::new();
    let on_signal = stop.clone();
    tokio::spawn(async move {
        crate::shutdown::signal().await;
        on_signal.cancel();
    });
    let mut first = true;
    loop {
        match sync(&db, &settings, &args).await {
            Ok(()) => {}
            // The first pass says what is wrong; a watch keeps going.
            Err(e) if first => {
                db.close().await;
                return Err(e);
            }
            Err(e) => tracing::error!(error = format!("{e:#}"), "cannot write Mosquitto's files; trying again"),
        }
        first = false;
        let Some(every) = args.watch else { break };
        tokio::select! {
            () = stop.cancelled() => break,
            () = tokio::time::sleep(Duration::from_secs(every)) => {}
        }
    }
    db.close().await;
    Ok(())
}

/// One pass: render, write what changed, and signal Mosquitto if it did.
async fn sync(db: &Db, settings: &Settings, args: &MosquittoArgs) -> anyhow::Result<()> {
    let files = mosquitto::render(db, &settings.mqtt, &args.dir, Utc::now())
        .await
        .context("reading the gateways' credentials (is the registry's database migrated?)")?;
    let changed = mosquitto::write(&args.dir, &files).with_context(|| format!("--dir {}", args.dir.display()))?;
    if !changed {
        return Ok(());
    }
    let gateways = files.0.get(mosquitto::GATEWAY_PASSWORDS).map_or(0, |f| f.lines().count());
    say(format_args!("wrote Mosquitto's files to {} ({gateways} gateway logins)", args.dir.display()));
    if let Some(pid_file) = &args.pid_file {
        reload(pid_file)?;
    }
    Ok(())
}

/// Sends SIGHUP to the process whose id `pid_file` holds: Mosquitto
/// re-reads its password and ACL files, and drops the clients whose
/// password no longer matches.
fn reload(pid_file: &Path) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(pid_file).with_context(|| format!("--pid-file {}", pid_file.display()))?;
    let pid = text
        .trim()
        .parse::<i32>()
        .ok()
        .and_then(rustix::process::Pid::from_raw)
        .with_context(|| format!("--pid-file {}: {:?} is not a process id", pid_file.display(), text.trim()))?;
    rustix::process::kill_process(pid, rustix::process::Signal::HUP)
        .with_context(|| format!("cannot signal Mosquitto (pid {})", pid.as_raw_nonzero()))?;
    say(format_args!("Mosquitto (pid {}) reloads them", pid.as_raw_nonzero()));
    Ok(())
}
