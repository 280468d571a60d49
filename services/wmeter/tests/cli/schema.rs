//! `wmeter migrate` and `wmeter replay`.

use crate::wmeter;

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
