use wm_proto::v1::{AlarmAcknowledged, AlarmRaised, BleActivity, MeterUpdated, ReadingReceived};

use super::*;

fn reading(meter: &str) -> Envelope {
    let reading = ReadingReceived { meter_id: meter.into(), record: 1, ..ReadingReceived::default() };
    Envelope::new(meter, "gateway:GW00000001", Payload::ReadingReceived(reading))
}

#[test]
fn a_burst_of_readings_on_a_few_meters_is_one_hint_naming_each_meter_once() {
    let mut window = Coalescer::default();
    for n in 0..1000 {
        window.add(&reading(&format!("m{}", n % 3)));
    }
    let hint = window.take().unwrap();
    assert_eq!(hint.devices.len(), 3);
    assert!(hint.complete);
    assert_eq!(hint.changes, BTreeSet::from(["reading"]));
    assert_eq!(
        hint.devices[0],
        DeviceHint { id: "m0".into(), kind: Some("meter"), changes: BTreeSet::from(["reading"]) }
    );
    assert_eq!(window.take(), None, "the next window starts empty");
}

#[test]
fn past_the_cap_a_hint_names_no_more_devices_and_says_it_is_incomplete() {
    let mut window = Coalescer::default();
    for n in 0..=MAX_DEVICES {
        window.add(&reading(&format!("m{n:04}")));
    }
    window.add(&reading("m0000"));
    let hint = window.take().unwrap();
    assert_eq!((hint.devices.len(), hint.complete), (MAX_DEVICES, false));
    assert!(hint.devices.iter().any(|d| d.id == "m0000"), "a device already named keeps its changes");
}

#[test]
fn each_event_names_the_devices_it_is_about_and_its_change() {
    let mut window = Coalescer::default();
    let ble = BleActivity { gateway_id: "g1".into(), meter_id: "m1".into(), ..BleActivity::default() };
    window.add(&Envelope::new("m1", "gateway:GW00000001", Payload::BleActivity(ble)));
    window.add(&Envelope::new("m1", "u1", Payload::MeterUpdated(MeterUpdated::default())));
    let raised = AlarmRaised { device_kind: AlarmDeviceKind::Gateway.into(), ..AlarmRaised::default() };
    window.add(&Envelope::new("g2", "gateway:GW00000002", Payload::AlarmRaised(raised)));
    window.add(&Envelope::new("m3", "u1", Payload::AlarmAcknowledged(AlarmAcknowledged::default())));
    let hint = window.take().unwrap();
    let seen: Vec<_> =
        hint.devices.iter().map(|d| (d.id.as_str(), d.kind, d.changes.iter().copied().collect::<Vec<_>>())).collect();
    assert_eq!(
        seen,
        [
            ("g1", Some("gateway"), vec!["ble"]),
            ("g2", Some("gateway"), vec!["alarm"]),
            ("m1", Some("meter"), vec!["ble", "registry"]),
            ("m3", None, vec!["alarm"]),
        ]
    );
    assert_eq!(hint.changes, BTreeSet::from(["alarm", "ble", "registry"]));
}

#[test]
fn a_hint_is_one_server_sent_event_without_an_id() {
    let event = Hint::everything().event();
    let text = std::str::from_utf8(&event).unwrap();
    assert!(text.starts_with("event: hint\ndata: {") && text.ends_with("}\n\n"), "{text}");
    assert!(!text.contains("\nid:"));
    let data: serde_json::Value =
        serde_json::from_str(text.lines().nth(1).unwrap().strip_prefix("data: ").unwrap()).unwrap();
    assert_eq!(
        (data["complete"].as_bool(), data["changes"].as_array().map(Vec::len)),
        (Some(false), Some(ALL_CHANGES.len()))
    );
}
