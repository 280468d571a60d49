//! `wmeter mosquitto`: writes Mosquitto's password and ACL files from the
//! registry (docs/device-plane.md), once or every `--watch` seconds, and
//! makes Mosquitto reload them when they change.

use std::{path::Path, time::Duration};

use anyhow::Context;
use chrono::Utc;
use wm_storage::Db;

use wm_device_registry::device_ca::{CaError, DeviceCa};

use crate::{
    cli::MosquittoArgs,
    config::Settings,
    mosquitto::{self, CERTIFICATE_CRL},
    output::say,
};

pub async fn run(settings: Settings, args: MosquittoArgs) -> anyhow::Result<()> {
    if settings.mqtt.password.as_deref().is_none_or(str::is_empty) {
        anyhow::bail!("mqtt.password: required: w-meter's own login in Mosquitto's files (WMETER_MQTT__PASSWORD)");
    }
    // A sidecar: what goes wrong during a watch is logged (stderr).
    let _telemetry = wm_http::telemetry::init(&settings.log, "wmeter-mosquitto")?;
    // It holds the device CA's key beside a broker open to the field: a
    // process of the same user (Mosquitto's, in one pod) may not read this
    // one's memory or files through /proc.
    rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable)
        .context("cannot protect the process")?;
    let ca = device_ca(&settings)?;
    let db = Db::connect(&settings.database).await.context("database")?;
    let stop = tokio_util::sync::CancellationToken::new();
    let on_signal = stop.clone();
    tokio::spawn(async move {
        crate::shutdown::signal().await;
        on_signal.cancel();
    });
    // A reload owed to Mosquitto: asked again at each pass until it works.
    let (mut first, mut pending, mut failed) = (true, false, None);
    loop {
        match write(&db, &settings, ca.as_ref(), &args).await {
            Ok(changed) => pending |= changed,
            // The first pass says what is wrong; a watch keeps going.
            Err(e) if first => {
                db.close().await;
                return Err(e);
            }
            Err(e) => tracing::error!(error = format!("{e:#}"), "cannot write Mosquitto's files; trying again"),
        }
        if pending && let Some(pid_file) = &args.pid_file {
            match reload(pid_file) {
                Ok(()) => pending = false,
                Err(e) => {
                    tracing::warn!(error = format!("{e:#}"), "cannot make Mosquitto reload; trying again");
                    failed = Some(e);
                }
            }
        }
        first = false;
        let Some(every) = args.watch else { break };
        tokio::select! {
            () = stop.cancelled() => break,
            () = tokio::time::sleep(Duration::from_secs(every)) => {}
        }
    }
    db.close().await;
    match failed {
        Some(e) if pending => Err(e.context("Mosquitto did not reload its files")),
        _ => Ok(()),
    }
}

/// The device CA, which signs the revocation list; none (and no list) when
/// there is none.
fn device_ca(settings: &Settings) -> anyhow::Result<Option<DeviceCa>> {
    let devices = &settings.devices;
    let ca = DeviceCa::new(devices.ca_cert_file.clone(), devices.ca_key_file.clone(), false);
    match ca.certificate_pem() {
        Ok(_) => Ok(Some(ca)),
        Err(CaError::Missing) => {
            tracing::warn!(
                ca = %devices.ca_cert_file.display(),
                "no device CA: {CERTIFICATE_CRL} is not written, and Mosquitto's certificate listener needs it \
                 (make the CA with `wmeter broker-certificate`)"
            );
            Ok(None)
        }
        Err(e) => Err(e).context("the device CA, which signs the revocation list"),
    }
}

/// One pass: render, and write what changed; whether anything did.
async fn write(db: &Db, settings: &Settings, ca: Option<&DeviceCa>, args: &MosquittoArgs) -> anyhow::Result<bool> {
    let files = mosquitto::render(db, &settings.mqtt, &args.dir, ca, Utc::now()).await?;
    let changed = mosquitto::write(&args.dir, &files).with_context(|| format!("--dir {}", args.dir.display()))?;
    if changed {
        let gateways = files.0.get(mosquitto::GATEWAY_PASSWORDS).map_or(0, |f| f.lines().count());
        say(format_args!("wrote Mosquitto's files to {} ({gateways} gateway logins)", args.dir.display()));
    }
    Ok(changed)
}

/// Sends SIGHUP to the process whose id `pid_file` holds: Mosquitto
/// re-reads its password and ACL files, and drops the clients whose
/// password no longer matches.
fn reload(pid_file: &Path) -> anyhow::Result<()> {
    let text = match std::fs::read_to_string(pid_file) {
        Ok(text) => text,
        // Not started yet: it reads the files when it starts.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            say(format_args!(
                "Mosquitto is not running yet ({} is missing): it reads them at start",
                pid_file.display()
            ));
            return Ok(());
        }
        Err(e) => return Err(e).with_context(|| format!("--pid-file {}", pid_file.display())),
    };
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
