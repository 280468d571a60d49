//! An import's apply registers a chunk's rows with one lookup of their
//! identifiers and a few writes: a row whose identifiers a registered
//! device holds, or an earlier row of the same apply, is skipped with the
//! spec's message.

use std::sync::Arc;

use wm_device_registry::{
    DeviceSettings,
    actions::Actions,
    device_ca::DeviceCa,
    domain::gateway,
    import::{self, Kind, NewDevice, RowError},
    storage::{
        self, devices, identifiers,
        lists::{self, Filter},
        registrations,
        rows::GatewayRow,
    },
};
use wm_domain::{Clock, DeviceId};
use wm_eventlog::audit::Attempt;
use wm_storage::{Db, StorageError};

use crate::helpers::TestApp;

const HEADER: &str = "serialNumber,imei,phoneNumber,bleAddress,macAddress,latitude,longitude\n";

fn rows(lines: &[&str]) -> Vec<(usize, import::NewDevice)> {
    let csv = format!("{HEADER}{}\n", lines.join("\n"));
    let checked = import::parse(Kind::Gateways, csv.as_bytes()).unwrap();
    assert!(checked.errors.is_empty(), "{:?}", checked.errors);
    checked.new
}

/// Who imports, in the audit trail.
static ATTEMPT: std::sync::LazyLock<Attempt> =
    std::sync::LazyLock::new(|| Attempt::new("ann", "admin", None, "devices.import"));

/// The registry's write side on `app`'s database and log, on `clock`.
fn actions(app: &TestApp, clock: Arc<dyn Clock>) -> Actions {
    let settings = (DeviceSettings::default(), Arc::new(DeviceCa::absent()));
    wm_device_registry::build(app.db().clone(), app.event_log(), clock, settings).0.actions.clone()
}

#[tokio::test]
async fn an_apply_skips_rows_whose_identifiers_are_held_by_a_device_or_an_earlier_row() {
    for app in crate::helpers::spawn_each().await {
        let actions = actions(&app, Arc::new(wm_domain::SystemClock));

        let first = rows(&["im00000001,000000000000001,0700000001,D0:00:00:00:00:01,E0:00:00:00:00:01,48.85,2.29"]);
        let (done, skipped) = actions.register_all(&ATTEMPT, first).await.unwrap();
        assert_eq!((done, skipped), (1, vec![]));

        // Row 1 shares the registered gateway's IMEI; row 3 shares row 2's
        // serial (two files' rows in one apply: one file's check refuses
        // its own repeats).
        let mut new = rows(&[
            "im00000002,000000000000001,0700000002,D0:00:00:00:00:02,E0:00:00:00:00:02,48.85,2.29",
            "im00000003,000000000000003,0700000003,D0:00:00:00:00:03,E0:00:00:00:00:03,48.85,2.29",
        ]);
        let mut again = rows(&["im00000003,000000000000004,0700000004,D0:00:00:00:00:04,E0:00:00:00:00:04,48.85,2.29"]);
        again[0].0 = 3;
        new.append(&mut again);
        let (done, skipped) = actions.register_all(&ATTEMPT, new).await.unwrap();
        let in_use = |row: usize, field: &str, message: &str| RowError {
            row,
            field: field.to_owned(),
            message: message.to_owned(),
        };
        assert_eq!(done, 1, "{:?}", app.db().backend());
        assert_eq!(
            skipped,
            [in_use(1, "imei", "IMEI already in use"), in_use(3, "serialNumber", "Serial Number already in use")],
            "{:?}",
            app.db().backend()
        );
        let fourth = rows(&["im00000009,000000000000004,0700000009,D0:00:00:00:00:09,E0:00:00:00:00:09,48.85,2.29"]);
        let held = identifiers::owners(app.db(), &fourth[0].1.identifiers()).await.unwrap();
        assert!(held.is_empty(), "the skipped row's own identifiers stay free: {held:?}");
    }
}

/// The gateway whose serial number is `serial`, as stored.
async fn stored(db: &Db, serial: &str) -> gateway::Gateway {
    let held = identifiers::owners(db, &[("serialNumber", serial.to_owned())]).await.unwrap();
    let id = held.into_values().next().unwrap_or_else(|| panic!("{serial} is registered"));
    let mut tx = db.begin_write().await.unwrap();
    devices::load_gateway(&mut tx, &id).await.unwrap().0.unwrap()
}

#[tokio::test]
async fn an_apply_registers_each_row_as_a_registration_would_one_after_the_other() {
    for app in crate::helpers::spawn_each().await {
        // A clock standing still: each registration takes the microsecond
        // after the one before.
        let at = chrono::DateTime::from_timestamp_micros(chrono::Utc::now().timestamp_micros()).unwrap();
        let actions = actions(&app, Arc::new(wm_domain::ManualClock::new(at)));
        let single = rows(&["im00000001,000000000000001,0700000001,D0:00:00:00:00:01,E0:00:00:00:00:01,,"]);
        let NewDevice::Gateway(single) = single[0].1.clone() else { unreachable!() };
        actions.register_gateway(&ATTEMPT, single).await.unwrap();

        let new = rows(&[
            "im00000002,000000000000002,0700000002,D0:00:00:00:00:02,E0:00:00:00:00:02,48.85,2.29",
            "im00000003,000000000000003,0700000003,D0:00:00:00:00:03,E0:00:00:00:00:03,,",
            "im00000004,000000000000004,0700000004,D0:00:00:00:00:04,E0:00:00:00:00:04,48.86,2.30",
        ]);
        assert_eq!(actions.register_all(&ATTEMPT, new).await.unwrap(), (3, vec![]));
        let next = rows(&["im00000005,000000000000005,0700000005,D0:00:00:00:00:05,E0:00:00:00:00:05,,"]);
        let NewDevice::Gateway(next) = next[0].1.clone() else { unreachable!() };
        actions.register_gateway(&ATTEMPT, next).await.unwrap();

        let db = app.db();
        let mut times = Vec::new();
        for n in 1..=5 {
            let stored = stored(db, &format!("IM0000000{n}")).await;
            assert_eq!(stored.imei.as_str(), format!("00000000000000{n}"), "{:?}", db.backend());
            times.push(stored.registered_at);
        }
        let expected: Vec<_> = (0..5).map(|n| at + chrono::TimeDelta::microseconds(n)).collect();
        assert_eq!(times, expected, "registered one after the other, in the file's order, on {:?}", db.backend());
        assert_eq!(stored(db, "IM00000002").await.gps.map(|p| p.latitude()), Some(48.85));
        assert_eq!(stored(db, "IM00000003").await.gps, None);
        assert_eq!(lists::count::<GatewayRow>(db, Filter::All).await.unwrap(), 5, "the total counts every device");
        let found: Vec<GatewayRow> = storage::search::containing(db, "0000003", 20).await.unwrap();
        assert_eq!(found.len(), 1, "a partial serial finds the imported gateway: {found:?}");
    }
}

#[tokio::test]
async fn a_chunk_whose_identifier_was_taken_since_its_check_fails_with_that_field_and_writes_nothing() {
    for app in crate::helpers::spawn_each().await {
        let actions = actions(&app, Arc::new(wm_domain::SystemClock));
        let first = rows(&["im00000001,000000000000001,0700000001,D0:00:00:00:00:01,E0:00:00:00:00:01,,"]);
        actions.register_all(&ATTEMPT, first).await.unwrap();

        // Row 2 takes the registered gateway's IMEI, as a registration
        // committed between an apply's check and its write would have.
        let chunk = rows(&[
            "im00000002,000000000000002,0700000002,D0:00:00:00:00:02,E0:00:00:00:00:02,,",
            "im00000003,000000000000001,0700000003,D0:00:00:00:00:03,E0:00:00:00:00:03,,",
        ]);
        let events: Vec<_> = chunk
            .iter()
            .flat_map(|(_, device)| {
                let NewDevice::Gateway(gateway) = device.clone() else { unreachable!() };
                let command =
                    gateway::Command::Register { id: DeviceId::new(), registered_at: chrono::Utc::now(), gateway };
                gateway::decide(None, false, command).unwrap()
            })
            .collect();
        let db = app.db();
        let mut tx = db.begin_write().await.unwrap();
        let refused = registrations::register(&mut tx, &events).await.unwrap_err();
        assert!(
            matches!(&refused, StorageError::Taken { field: "imei", value } if value == "000000000000001"),
            "{refused:?} on {:?}",
            db.backend()
        );
        drop(tx);
        assert_eq!(lists::count::<GatewayRow>(db, Filter::All).await.unwrap(), 1);
        let held = identifiers::owners(db, &chunk[0].1.identifiers()).await.unwrap();
        assert!(held.is_empty(), "nothing of the chunk stays: {held:?}");
    }
}

/// The pairs an import looks up are each a search of the primary key, not
/// a scan of every device's identifiers: SQLite scans the table for the
/// same lookup written `(field, value) IN (VALUES …)`.
#[tokio::test]
async fn sqlite_finds_each_pair_an_import_looks_up_by_the_primary_key() {
    let db = wm_test_support::TestDb::sqlite().await;
    db.migrate(&wm_device_registry::MIGRATIONS).await.unwrap();
    let plan = db.sqlite_plan(&identifiers::owners_statement(wm_storage::Backend::Sqlite, 3)).await;
    let searches = plan.iter().filter(|step| step.starts_with("SEARCH device_identifiers USING INDEX")).count();
    assert_eq!(searches, 3, "{plan:?}");
    assert!(!plan.iter().any(|step| step.starts_with("SCAN device_identifiers")), "{plan:?}");
}
