//! An import's apply registers a chunk's rows with one lookup of their
//! identifiers: a row whose identifiers a registered device holds, or an
//! earlier row of the same apply, is skipped with the spec's message.

use std::sync::Arc;

use wm_device_registry::{
    DeviceSettings,
    device_ca::DeviceCa,
    import::{self, Kind, RowError},
    storage::identifiers,
};
use wm_eventlog::audit::Attempt;

const HEADER: &str = "serialNumber,imei,phoneNumber,bleAddress,macAddress,latitude,longitude\n";

fn rows(lines: &[&str]) -> Vec<(usize, import::NewDevice)> {
    let csv = format!("{HEADER}{}\n", lines.join("\n"));
    let checked = import::parse(Kind::Gateways, csv.as_bytes()).unwrap();
    assert!(checked.errors.is_empty(), "{:?}", checked.errors);
    checked.new
}

#[tokio::test]
async fn an_apply_skips_rows_whose_identifiers_are_held_by_a_device_or_an_earlier_row() {
    for app in crate::helpers::spawn_each().await {
        let settings = (DeviceSettings::default(), Arc::new(DeviceCa::absent()));
        let clock = Arc::new(wm_domain::SystemClock);
        let (state, _relay) = wm_device_registry::build(app.db().clone(), app.event_log(), clock, settings);
        let attempt = Attempt::new("ann", "admin", None, "devices.import");

        let first = rows(&["im00000001,000000000000001,0700000001,D0:00:00:00:00:01,E0:00:00:00:00:01,48.85,2.29"]);
        let (done, skipped) = state.actions.register_all(&attempt, first).await.unwrap();
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
        let (done, skipped) = state.actions.register_all(&attempt, new).await.unwrap();
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

/// The pairs an import looks up are each a search of the primary key, not
/// a scan of every device's identifiers: SQLite scans the table for the
/// same lookup written `(field, value) IN (VALUES …)`.
#[tokio::test]
async fn sqlite_finds_each_pair_an_import_looks_up_by_the_primary_key() {
    let db = wm_test_support::TestDb::sqlite().await;
    db.migrate(&wm_device_registry::MIGRATIONS).await.unwrap();
    let plan = db.sqlite_plan(&identifiers::owners_statement(3)).await;
    let searches = plan.iter().filter(|step| step.starts_with("SEARCH device_identifiers USING INDEX")).count();
    assert_eq!(searches, 3, "{plan:?}");
    assert!(!plan.iter().any(|step| step.starts_with("SCAN device_identifiers")), "{plan:?}");
}
