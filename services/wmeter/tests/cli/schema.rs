//! `wmeter migrate` and `wmeter replay`.

use wm_eventlog::{
    EventLog, OutgoingRecord,
    embedded::{EmbeddedLog, EmbeddedSettings},
};
use wm_storage::{DatabaseSettings, Db};

use crate::{run, wmeter};

#[test]
fn migrate_creates_the_schema_and_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("nested/wm.db");
    for _ in 0..2 {
        let output = wmeter()
            .args(["migrate"])
            .env("WMETER_DATABASE__URL", format!("sqlite://{}", db.display()))
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            "eventlog: up to date\nauth: up to date\noutbox: up to date\ncheckpoints: up to date\n\
             device-registry: up to date\ntelemetry-ingest: up to date\n\
             notification: up to date\n"
        );
    }
    assert!(db.is_file());
}

/// What `wmeter replay args…` prints on a fresh database, asserting it succeeds.
fn replay(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let output = wmeter()
        .arg("replay")
        .args(args)
        .env("WMETER_DATABASE__URL", format!("sqlite://{}/wm.db", dir.path().display()))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn replay_runs_against_the_configured_log() {
    assert_eq!(
        replay(&[]),
        "auth.audit: rebuilt from 0 events\nauth.key-uses: rebuilt from 0 events\n\
         device-registry.devices: rebuilt from 0 events\ndevice-registry.state: rebuilt from 0 events\n\
         telemetry-ingest.directory: rebuilt from 0 events\ntelemetry-ingest.telemetry: rebuilt from 0 events\n\
         telemetry-ingest.rollups: rebuilt from 0 events\n\
         notification.directory: rebuilt from 0 events\nnotification.rules: rebuilt from 0 events\n\
         notification.inbox: rebuilt from 0 events\nnotification.alarm-rules: rebuilt from 0 events\n"
    );
}

#[test]
fn replay_of_one_service_rebuilds_only_its_projections() {
    assert_eq!(
        replay(&["--service", "telemetry-ingest"]),
        "telemetry-ingest.directory: rebuilt from 0 events\ntelemetry-ingest.telemetry: rebuilt from 0 events\n\
         telemetry-ingest.rollups: rebuilt from 0 events\n"
    );
}

/// Once the telemetry retention expired the embedded log's oldest readings,
/// a replay would rebuild the totals and rollups from the window left: it
/// is refused, saying why and what to do, unless asked for.
#[tokio::test]
async fn replay_after_the_retention_expired_telemetry_is_refused_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/wm.db", dir.path().display());
    let (code, stderr) = run(wmeter().arg("migrate").env("WMETER_DATABASE__URL", &url));
    assert_eq!(code, 0, "{stderr}");
    let db = Db::connect(&DatabaseSettings { url: url.clone(), ..DatabaseSettings::default() }).await.unwrap();
    let log = EmbeddedLog::open(&db, EmbeddedSettings::default()).await.unwrap();
    let readings = wm_proto::topics::READINGS;
    log.ensure_topics(&[readings]).await.unwrap();
    let records = (0..3).map(|n| OutgoingRecord::new(readings, "meter", format!("r{n}").into_bytes())).collect();
    log.append_batch(records).await.unwrap();
    assert_eq!(log.expire(readings, chrono::Utc::now() + chrono::TimeDelta::hours(1)).await.unwrap(), 2);
    drop(log);
    db.close().await;

    let (code, stderr) = run(wmeter().arg("replay").env("WMETER_DATABASE__URL", &url));
    assert_ne!(code, 0, "refused");
    assert!(
        stderr.contains(&format!("replay refused: the telemetry retention expired the oldest records of {readings}"))
            && stderr.contains("Restore a backup instead")
            && stderr.contains("--allow-expired"),
        "{stderr}"
    );
    let (code, stderr) = run(wmeter().args(["replay", "--allow-expired"]).env("WMETER_DATABASE__URL", &url));
    assert_eq!(code, 0, "{stderr}");
}
