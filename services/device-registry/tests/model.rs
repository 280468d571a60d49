//! A state machine of register, update and delete against a simple model:
//! after any sequence the registry holds what the model holds, refuses what
//! the model refuses, and a rebuild from its events gives the same tables.
//! On SQLite and on PostgreSQL (the events go to an embedded log either
//! way: the log is not what is tested here).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

use std::{collections::BTreeMap, sync::Arc};

use chrono::DateTime;
use proptest::{prelude::*, test_runner::TestRunner};
use wm_device_registry::{
    DeviceSettings, RegistryError,
    domain::{
        gateway::{self, GatewayChanges, NewGateway},
        meter::{self, NewMeter},
    },
    storage::{
        lists::{self, Filter, Page},
        rows::{GatewayRow, MeterRow},
    },
};
use wm_domain::{BleAddress, DeviceId, GpsCoordinates, Imei, MacAddress, ManualClock, PhoneNumber, SerialNumber};
use wm_eventlog::{
    EventLog,
    audit::Attempt,
    embedded::{EmbeddedLog, EmbeddedSettings},
    projection::{self, RunOptions},
};
use wm_storage::Db;
use wm_test_support::TestDb;

#[derive(Clone, Debug)]
enum Op {
    RegisterGateway(u8),
    RegisterMeter(u8),
    ChangePhone(usize, u8),
    MoveMeter(usize, i16),
    DeleteGateway(usize),
    DeleteMeter(usize),
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    let op = prop_oneof![
        (0_u8..6).prop_map(Op::RegisterGateway),
        (0_u8..6).prop_map(Op::RegisterMeter),
        (any::<usize>(), 0_u8..8).prop_map(|(i, n)| Op::ChangePhone(i, n)),
        (any::<usize>(), -90_i16..90).prop_map(|(i, lat)| Op::MoveMeter(i, lat)),
        any::<usize>().prop_map(Op::DeleteGateway),
        any::<usize>().prop_map(Op::DeleteMeter),
    ];
    prop::collection::vec(op, 1..25)
}

fn new_gateway(n: u8) -> NewGateway {
    NewGateway {
        serial_number: SerialNumber::parse(&format!("GW{n:08}")).unwrap(),
        imei: Imei::parse(&format!("{n:015}")).unwrap(),
        phone_number: phone(n),
        ble_address: BleAddress::parse(&format!("A0:00:00:00:00:{n:02X}")).unwrap(),
        mac_address: MacAddress::parse(&format!("B0:00:00:00:00:{n:02X}")).unwrap(),
        gps: None,
    }
}

fn phone(n: u8) -> PhoneNumber {
    PhoneNumber::parse(&format!("06{n:08}")).unwrap()
}

fn new_meter(n: u8) -> NewMeter {
    NewMeter {
        serial_number: SerialNumber::parse(&format!("WM{n:08}")).unwrap(),
        ble_address: BleAddress::parse(&format!("C0:00:00:00:00:{n:02X}")).unwrap(),
        gps: None,
    }
}

/// What the registry should hold: gateways by id with their phone, meters
/// by id with their latitude.
#[derive(Default, Debug, PartialEq)]
struct Model {
    gateways: BTreeMap<String, (u8, u8)>,
    meters: BTreeMap<String, (u8, Option<i16>)>,
}

impl Model {
    fn pick<V>(map: &BTreeMap<String, V>, i: usize) -> Option<String> {
        (!map.is_empty()).then(|| map.keys().nth(i % map.len()).cloned()).flatten()
    }
}

struct Setup {
    db: TestDb,
    log: Arc<dyn EventLog>,
    _log_db: TestDb,
}

async fn setup(db: TestDb) -> Setup {
    for migrations in
        [&wm_eventlog::outbox::MIGRATIONS, &wm_eventlog::checkpoint::MIGRATIONS, &wm_device_registry::MIGRATIONS]
    {
        db.migrate(migrations).await.unwrap();
    }
    let log_db = TestDb::sqlite().await;
    let log: Arc<dyn EventLog> = Arc::new(EmbeddedLog::open(&log_db, EmbeddedSettings::default()).await.unwrap());
    Setup { db, log, _log_db: log_db }
}

async fn run_case(setup: &Setup, ops: &[Op]) -> Result<(), TestCaseError> {
    let clock = Arc::new(ManualClock::new(DateTime::from_timestamp(1_800_000_000, 0).unwrap()));
    let (state, relay) = wm_device_registry::build(
        setup.db.db().clone(),
        setup.log.clone(),
        clock.clone(),
        (DeviceSettings::default(), std::sync::Arc::new(wm_device_registry::device_ca::DeviceCa::absent())),
    );
    let actions = &state.actions;
    let by = Attempt::new("u", "operator", None, "model");
    let mut model = Model::default();
    for op in ops {
        match op.clone() {
            Op::RegisterGateway(n) => {
                let taken = model.gateways.values().any(|(g, p)| *g == n || *p == n);
                match actions.register_gateway(&by, new_gateway(n)).await {
                    Ok(id) => {
                        prop_assert!(!taken, "{op:?} should be refused");
                        model.gateways.insert(id.to_string(), (n, n));
                    }
                    Err(e) => prop_assert!(taken && matches!(e, RegistryError::Taken(_)), "{op:?}: {e:?}"),
                }
            }
            Op::RegisterMeter(n) => {
                let taken = model.meters.values().any(|(m, _)| *m == n);
                match actions.register_meter(&by, new_meter(n)).await {
                    Ok(id) => {
                        prop_assert!(!taken, "{op:?} should be refused");
                        model.meters.insert(id.to_string(), (n, None));
                    }
                    Err(e) => prop_assert!(taken && matches!(e, RegistryError::Taken(_)), "{op:?}: {e:?}"),
                }
            }
            Op::ChangePhone(i, p) => {
                let Some(id) = Model::pick(&model.gateways, i) else { continue };
                let taken = model.gateways.iter().any(|(other, (_, phone))| *other != id && *phone == p);
                let changes = GatewayChanges { phone_number: Some(phone(p)), gps: None };
                let result =
                    actions.change_gateway(&by, DeviceId::parse(&id).unwrap(), gateway::Command::Update(changes)).await;
                match result {
                    Ok(()) => {
                        prop_assert!(!taken, "{op:?} should be refused");
                        model.gateways.get_mut(&id).unwrap().1 = p;
                    }
                    Err(e) => prop_assert!(taken && matches!(e, RegistryError::Taken(_)), "{op:?}: {e:?}"),
                }
            }
            Op::MoveMeter(i, lat) => {
                let Some(id) = Model::pick(&model.meters, i) else { continue };
                let gps = GpsCoordinates::new(1.0, f64::from(lat)).ok();
                actions.change_meter(&by, DeviceId::parse(&id).unwrap(), meter::Command::Update { gps }).await.unwrap();
                model.meters.get_mut(&id).unwrap().1 = Some(lat);
            }
            Op::DeleteGateway(i) => {
                let Some(id) = Model::pick(&model.gateways, i) else { continue };
                let device = DeviceId::parse(&id).unwrap();
                actions.change_gateway(&by, device, gateway::Command::Delete).await.unwrap();
                model.gateways.remove(&id);
                let again = actions.change_gateway(&by, device, gateway::Command::Delete).await;
                prop_assert!(matches!(again, Err(RegistryError::NotFound(_))), "{again:?}");
            }
            Op::DeleteMeter(i) => {
                let Some(id) = Model::pick(&model.meters, i) else { continue };
                actions.change_meter(&by, DeviceId::parse(&id).unwrap(), meter::Command::Delete).await.unwrap();
                model.meters.remove(&id);
            }
        }
    }
    let before = stored(setup.db.db()).await;
    prop_assert_eq!(&model_of(&before), &model);
    relay.flush().await.unwrap();
    for projection in wm_device_registry::projections(setup.db.db(), clock) {
        projection::rebuild(setup.log.as_ref(), projection.as_ref(), RunOptions::default()).await.unwrap();
    }
    prop_assert_eq!(stored(setup.db.db()).await, before, "a rebuild gives the same tables");
    Ok(())
}

/// Every stored device and the maintained totals.
async fn stored(db: &Db) -> (Vec<GatewayRow>, Vec<MeterRow>, i64, i64) {
    let page = Page { max: 500, start: None, reverse: false };
    (
        lists::list(db, Filter::All, page).await.unwrap(),
        lists::list(db, Filter::All, page).await.unwrap(),
        lists::count::<GatewayRow>(db, Filter::All).await.unwrap(),
        lists::count::<MeterRow>(db, Filter::All).await.unwrap(),
    )
}

fn model_of((gateways, meters, gateway_count, meter_count): &(Vec<GatewayRow>, Vec<MeterRow>, i64, i64)) -> Model {
    assert_eq!(usize::try_from(*gateway_count).unwrap(), gateways.len());
    assert_eq!(usize::try_from(*meter_count).unwrap(), meters.len());
    let number = |s: &str| s[s.len() - 2..].parse::<u8>().unwrap();
    Model {
        gateways: gateways
            .iter()
            .map(|g| (g.id.clone(), (number(&g.serial_number), number(&g.phone_number))))
            .collect(),
        #[expect(clippy::cast_possible_truncation, reason = "latitudes are whole degrees in this test")]
        meters: meters
            .iter()
            .map(|m| (m.id.clone(), (number(&m.serial_number), m.latitude.map(|l| l as i16))))
            .collect(),
    }
}

fn check<F: Future<Output = Option<TestDb>>>(cases: u32, fresh: impl Fn() -> F) {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let mut runner = TestRunner::new(ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() });
    let result = runner.run(&ops(), |ops| {
        runtime.block_on(async {
            // A fresh database per case; none configured means skip.
            let Some(db) = fresh().await else { return Ok(()) };
            run_case(&setup(db).await, &ops).await
        })
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn sqlite() {
    check(48, || async { Some(TestDb::sqlite().await) });
}

#[test]
fn postgres() {
    check(16, TestDb::postgres);
}
