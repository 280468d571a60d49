use chrono::TimeZone;
use serde_json::json;

use super::*;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 22, 9, 30, 0).unwrap()
}

fn parse_json(kind: Kind, value: Value) -> Result<Uplink, Rejection> {
    parse(kind, value.to_string().as_bytes(), now())
}

const AT: &str = "2026-11-22T09:31:05Z";

#[test]
fn each_kind_parses_its_documented_example() {
    let ble = BleAddress::parse("AA:BB:CC:DD:EE:03").unwrap();
    let cases = [
        (Kind::Status, json!({"status": "online", "messageId": 1, "timestamp": AT}), Body::Status { online: true }),
        (Kind::Status, json!({"status": "offline"}), Body::Status { online: false }),
        (Kind::Heartbeat, json!({"messageId": 2, "timestamp": AT}), Body::Heartbeat),
        (
            Kind::Reading,
            json!({"messageId": 3, "timestamp": AT, "meter": "aa:bb:cc:dd:ee:03", "record": 42, "unit": "L"}),
            Body::Reading { meter: MeterRef::Ble(ble.clone()), record: 42, unit: Unit::Litre },
        ),
        (
            Kind::Ble,
            json!({"messageId": 4, "timestamp": AT, "meter": "W-ZX98YW76VU", "rssi": -73}),
            Body::Ble { meter: MeterRef::Serial(SerialNumber::parse("ZX98YW76VU").unwrap()), rssi: -73 },
        ),
        (
            Kind::Alert,
            json!({"messageId": 5, "timestamp": AT, "meter": "AABBCCDDEE03", "type": "leak", "state": "raised"}),
            Body::Alert { meter: MeterRef::Ble(ble.clone()), alert_type: "leak".into(), raised: true },
        ),
        (
            Kind::Discovery,
            json!({"messageId": 6, "timestamp": AT, "name": "W-ZX98YW76VU", "bleAddress": "AA:BB:CC:DD:EE:09"}),
            Body::Discovery {
                name: "W-ZX98YW76VU".into(),
                ble_address: BleAddress::parse("AA:BB:CC:DD:EE:09").unwrap(),
            },
        ),
        (
            Kind::ShutdownRequest,
            json!({"messageId": 7, "timestamp": AT, "meter": "AA:BB:CC:DD:EE:03", "requestId": "leak-7781"}),
            Body::ShutdownRequest { meter: MeterRef::Ble(ble), request_id: Some("leak-7781".into()) },
        ),
        (
            Kind::Ack,
            json!({"messageId": 8, "timestamp": AT, "commandId": "c-1", "ok": false, "detail": "valve stuck"}),
            Body::Ack { command_id: "c-1".into(), ok: false, detail: "valve stuck".into() },
        ),
    ];
    for (kind, payload, body) in cases {
        let uplink = parse_json(kind, payload.clone()).unwrap_or_else(|e| panic!("{kind:?} {payload}: {e:?}"));
        assert_eq!(uplink.body, body, "{kind:?}");
    }
}

#[test]
fn bad_payloads_get_their_reason() {
    use DeadLetterReason::{MalformedPayload, OutOfRange, PayloadTooLarge};
    let cases = [
        (
            Kind::Reading,
            json!({"messageId": 3, "timestamp": AT, "meter": "AA:BB:CC:DD:EE:03", "record": -5, "unit": "L"}),
            MalformedPayload,
        ),
        (
            Kind::Reading,
            json!({"messageId": 3, "timestamp": AT, "meter": "AA:BB:CC:DD:EE:03", "record": 5, "unit": "gal"}),
            MalformedPayload,
        ),
        (
            Kind::Reading,
            json!({"messageId": 3, "timestamp": "2027-11-22T09:31:05Z", "meter": "AA:BB:CC:DD:EE:03", "record": 5, "unit": "L"}),
            OutOfRange,
        ),
        (
            Kind::Reading,
            json!({"messageId": 3, "timestamp": "yesterday", "meter": "AA:BB:CC:DD:EE:03", "record": 5, "unit": "L"}),
            MalformedPayload,
        ),
        (
            Kind::Reading,
            json!({"messageId": 0, "timestamp": AT, "meter": "AA:BB:CC:DD:EE:03", "record": 5, "unit": "L"}),
            MalformedPayload,
        ),
        (Kind::Heartbeat, json!({"messageId": 2, "timestamp": AT, "colour": "red"}), MalformedPayload),
        (Kind::Heartbeat, json!({"timestamp": AT}), MalformedPayload),
        (Kind::Ble, json!({"messageId": 4, "timestamp": AT, "meter": "AA:BB:CC:DD:EE:03", "rssi": -300}), OutOfRange),
        (Kind::Ble, json!({"messageId": 4, "timestamp": AT, "meter": "nobody", "rssi": -70}), MalformedPayload),
        (
            Kind::Alert,
            json!({"messageId": 5, "timestamp": AT, "meter": "AA:BB:CC:DD:EE:03", "type": "LEAK!", "state": "raised"}),
            MalformedPayload,
        ),
        (Kind::Status, json!({"status": "sleepy"}), MalformedPayload),
        (Kind::Status, json!([1, 2]), MalformedPayload),
    ];
    for (kind, payload, reason) in cases {
        let rejection = parse_json(kind, payload.clone()).expect_err(&payload.to_string());
        assert_eq!(rejection.reason, reason, "{payload}: {}", rejection.detail);
        assert!(!rejection.detail.is_empty());
    }
    let huge = vec![b' '; MAX_PAYLOAD_BYTES + 1];
    assert_eq!(parse(Kind::Heartbeat, &huge, now()).unwrap_err().reason, PayloadTooLarge);
    assert_eq!(parse(Kind::Heartbeat, b"{not json", now()).unwrap_err().reason, MalformedPayload);
}

proptest::proptest! {
    #[test]
    fn any_bytes_are_parsed_or_rejected_never_a_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..512)) {
        for kind in Kind::ALL {
            let _ = parse(kind, &bytes, now());
        }
    }
}
