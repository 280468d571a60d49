//! `wmeter backup` while the server ingests, and `wmeter restore` into a
//! fresh directory: the restored server holds every reading acknowledged
//! before the backup, every device and every user, and the sessions of the
//! old server still hold. A restore never replaces a live database, and
//! keeps aside what it replaces.

use std::{path::Path, process::Command, time::Duration};

use crate::{
    add_user,
    gateway::{self, Acked, METERS},
    plain_http, serve_command, wait,
};

/// More than the test lets the gateway send: the backup is taken in the
/// middle of the ingest, and the ingest goes on after it.
const MESSAGES: usize = 200_000;
const BACKUP_AFTER: usize = 3_000;
/// What the server must still acknowledge after the backup.
const AFTER_BACKUP: usize = 2_000;
const PASSWORD: &str = "a-long-password";

#[test]
fn a_backup_taken_under_load_restores_every_acknowledged_reading_device_and_user() {
    let source = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (_, uplinks) = gateway::seed(source.path(), &runtime);
    add_user(source.path(), "ann", "operator", PASSWORD);
    let port = wm_test_support::ports::for_server();
    let mut server = gateway::start(source.path(), port);
    let token = plain_http::sign_in(&server.url, "ann", PASSWORD);

    let acked = Acked::new(MESSAGES);
    let publishing = runtime.spawn(gateway::publish_all(port, uplinks.clone(), acked.clone()));
    wait_for(|| acked.count() >= BACKUP_AFTER, "the first acknowledgements");
    let before_backup = acked.flags();
    let file = source.path().join("backups/wm.backup");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let (code, out, err) = command(source.path(), &["backup", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(&format!("backed up {}/wm.db to {} (", source.path().display(), file.display())), "{out}");
    let at_backup = acked.count();
    wait_for(|| acked.count() >= at_backup + AFTER_BACKUP, "acknowledgements after the backup");

    let (code, _, err) = command(source.path(), &["backup", file.to_str().unwrap()]);
    assert_eq!(code, 1, "an existing file is never overwritten");
    assert!(err.contains("already exists; a backup never overwrites a file"), "{err}");
    let (code, _, err) = command(source.path(), &["restore", file.to_str().unwrap(), "--replace"]);
    assert_eq!(code, 1, "a live database is never replaced");
    assert!(err.contains("is in use by a running wmeter"), "{err}");
    assert!(!source.path().join("wm.db.restoring").exists());

    publishing.abort();
    stop(&mut server.child);

    let restored = tempfile::tempdir().unwrap();
    let (code, out, err) = command(restored.path(), &["restore", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(&format!("restored {} (taken at ", file.display())), "{out}");
    assert_eq!(
        std::fs::read(restored.path().join("jwt.key")).unwrap(),
        std::fs::read(source.path().join("jwt.key")).unwrap(),
        "the access-token key comes back with the database"
    );

    let mut server = gateway::start(restored.path(), wm_test_support::ports::for_server());
    let url = server.url.clone();
    let get = |path: &str| plain_http::get_json(&format!("{url}/api/proxy/{path}"), &token);
    assert_eq!(get("gateways/count")["count"], 1, "a session of the old server holds");
    assert_eq!(get("wmeters/count")["count"], METERS);
    let _ = plain_http::sign_in(&url, "ann", PASSWORD);

    let pool = runtime.block_on(sqlx::SqlitePool::connect(&format!("sqlite://{}/wm.db", restored.path().display())));
    let pool = pool.unwrap();
    let acknowledged = before_backup.iter().filter(|a| **a).count();
    let mut rows = runtime.block_on(gateway::projected(&pool, &uplinks, acknowledged));
    // The projections catch up on the restored log: wait until they agree.
    for _ in 0..40 {
        let total = rows.readings.values().map(Vec::len).sum::<usize>() as i64;
        if rows.records_count == total
            && rows.consumption_ml.values().sum::<i64>() == rows.readings.values().flatten().sum::<i64>()
        {
            break;
        }
        rows = runtime.block_on(gateway::projected(&pool, &uplinks, 0));
    }
    for (i, _) in before_backup.iter().enumerate().filter(|(_, acked)| **acked) {
        let key = (uplinks.meters[i % METERS].clone(), uplinks.at(i).timestamp_micros());
        let found = rows.readings.get(&key).map_or(&[][..], Vec::as_slice);
        assert_eq!(found, [1_000 * (1 + i as i64 % 7)], "message {}, acknowledged before the backup", i + 1);
    }
    let total = rows.readings.values().map(Vec::len).sum::<usize>();
    assert!(total < at_backup + AFTER_BACKUP, "the copy is of one instant: {total} readings");
    let per_meter: i64 = rows.consumption_ml.values().sum();
    let readings_ml: i64 = rows.readings.values().flatten().sum();
    assert_eq!(per_meter, readings_ml, "the meters' totals are those of the restored readings");
    assert_eq!(rows.records_count, total as i64, "the gateway's count is that of the restored readings");

    stop(&mut server.child);
}

#[test]
fn a_restore_checks_the_backup_and_keeps_aside_what_it_replaces() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = command(dir.path(), &["seed", "--gateways", "2", "--meters", "4", "--readings", "8"]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(dir.path().join("jwt.key"), "k".repeat(64)).unwrap();
    let file = dir.path().join("first.backup");
    let (code, _, err) = command(dir.path(), &["backup", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");

    let (code, _, err) = command(dir.path(), &["restore", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains(&format!("restoring would replace {}/wm.db; pass --replace", dir.path().display())), "{err}");
    let (code, _, err) = command(dir.path(), &["restore", dir.path().join("jwt.key").to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("jwt.key is not a wmeter backup"), "{err}");
    let (code, _, err) = command(dir.path(), &["restore", dir.path().join("missing").to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("missing is not a file"), "{err}");

    std::fs::write(dir.path().join("jwt.key"), "n".repeat(64)).unwrap();
    let (code, _, err) = command(dir.path(), &["restore", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("jwt.key"), "a changed key file is in the way too: {err}");
    let (code, out, err) = command(dir.path(), &["restore", file.to_str().unwrap(), "--replace"]);
    assert_eq!(code, 0, "{err}");
    let suffix = out.lines().nth(1).and_then(|l| l.strip_prefix("kept what was there as <name>")).expect(&out);
    assert_eq!(std::fs::read_to_string(dir.path().join("jwt.key")).unwrap(), "k".repeat(64));
    let kept = |name: &str| dir.path().join(format!("{name}{suffix}"));
    assert_eq!(std::fs::read_to_string(kept("jwt.key")).unwrap(), "n".repeat(64));
    assert!(kept("wm.db").is_file(), "{out}");
    let entries = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect::<Vec<_>>();
    assert!(!entries.iter().any(|n| n.to_string_lossy().ends_with(".restoring")), "{entries:?}");

    let (code, _, err) = command(dir.path(), &["seed", "--gateways", "1", "--meters", "1", "--readings", "0"]);
    assert_eq!(code, 1);
    assert!(err.contains("the database already holds 2 gateways"), "the restored database is in place: {err}");
}

/// `wmeter` with `args`, configured as [`serve_command`] configures a
/// server on `dir`: its code, standard output and standard error.
fn command(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = serve_command(dir, args, &[]).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (output.status.code().unwrap_or(-1), text(&output.stdout), text(&output.stderr))
}

fn stop(server: &mut std::process::Child) {
    Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap();
    wait(server, Duration::from_secs(30)).expect("stops on SIGTERM");
}

fn wait_for(done: impl Fn() -> bool, what: &str) {
    let waited = std::time::Instant::now();
    while !done() {
        assert!(waited.elapsed() < Duration::from_secs(300), "waited 5 minutes for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}
