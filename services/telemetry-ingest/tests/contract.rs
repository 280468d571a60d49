//! The MQTT contract holds together: every example in `docs/mqtt.md` is
//! valid against its JSON Schema in `schemas/` and accepted by the ingest
//! parser, and the schemas and the parser agree on valid and invalid
//! payloads.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

use std::path::Path;

use chrono::{TimeZone, Utc};
use serde_json::{Value, json};
use wm_uplink::{self as uplink, Kind};

fn schema(kind: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("schemas/{kind}.schema.json"));
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn kind(name: &str) -> Option<Kind> {
    Kind::ALL.into_iter().find(|k| k.as_str() == name)
}

/// `(kind, example)` for each JSON block under a "### `kind`" heading.
fn documented_examples() -> Vec<(String, Value)> {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/mqtt.md")).unwrap();
    let mut examples = Vec::new();
    let mut current = None;
    let mut block: Option<String> = None;
    for line in doc.lines() {
        if let Some(heading) = line.strip_prefix("### `") {
            current = heading.split('`').next().map(str::to_owned);
        } else if line == "```json" {
            block = Some(String::new());
        } else if line == "```" {
            if let (Some(text), Some(kind)) = (block.take(), &current) {
                examples.push((kind.clone(), serde_json::from_str(&text).expect(&text)));
            }
        } else if let Some(text) = &mut block {
            text.push_str(line);
        }
    }
    examples
}

#[test]
fn every_documented_example_is_valid_and_parsed() {
    let now = Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap();
    let examples = documented_examples();
    assert_eq!(examples.len(), 9, "one per kind and the downlink: {examples:?}");
    for (name, example) in examples {
        let errors: Vec<String> = schema(&name).iter_errors(&example).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{name} {example}: {errors:?}");
        if let Some(kind) = kind(&name) {
            uplink::parse(kind, example.to_string().as_bytes(), now).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        }
    }
}

#[test]
fn the_schemas_and_the_parser_agree() {
    let now = Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap();
    let at = "2026-11-22T09:31:05Z";
    let cases = [
        ("heartbeat", json!({"messageId": 2, "timestamp": at})),
        ("heartbeat", json!({"messageId": 2, "timestamp": at, "extra": 1})),
        ("heartbeat", json!({"messageId": 0, "timestamp": at})),
        ("heartbeat", json!({"timestamp": at})),
        ("status", json!({"status": "offline"})),
        ("status", json!({"status": "asleep"})),
        ("reading", json!({"messageId": 3, "timestamp": at, "meter": "AA:BB:CC:DD:EE:03", "record": 0, "unit": "mL"})),
        ("reading", json!({"messageId": 3, "timestamp": at, "meter": "w-zx98yw76vu", "record": 7, "unit": "L"})),
        ("reading", json!({"messageId": 3, "timestamp": at, "meter": "AA:BB:CC:DD:EE:03", "record": -1, "unit": "L"})),
        ("reading", json!({"messageId": 3, "timestamp": at, "meter": "AA:BB:CC:DD:EE:03", "record": 1.5, "unit": "L"})),
        ("reading", json!({"messageId": 3, "timestamp": at, "meter": "nobody", "record": 1, "unit": "L"})),
        ("reading", json!({"messageId": 3, "timestamp": at, "meter": "AA:BB:CC:DD:EE:03", "record": 1})),
        ("ble", json!({"messageId": 4, "timestamp": at, "meter": "AABBCCDDEE03", "rssi": -127})),
        ("ble", json!({"messageId": 4, "timestamp": at, "meter": "AABBCCDDEE03", "rssi": 21})),
        (
            "alert",
            json!({"messageId": 5, "timestamp": at, "meter": "AABBCCDDEE03", "type": "low-battery", "state": "cleared"}),
        ),
        ("alert", json!({"messageId": 5, "timestamp": at, "meter": "AABBCCDDEE03", "type": "Leak", "state": "raised"})),
        ("discovery", json!({"messageId": 6, "timestamp": at, "name": "", "bleAddress": "aa:bb:cc:dd:ee:09"})),
        (
            "discovery",
            json!({"messageId": 6, "timestamp": at, "name": "x".repeat(65), "bleAddress": "aa:bb:cc:dd:ee:09"}),
        ),
        ("shutdown-request", json!({"messageId": 7, "timestamp": at, "meter": "AABBCCDDEE03"})),
        ("shutdown-request", json!({"messageId": 7, "timestamp": at, "meter": "AABBCCDDEE03", "requestId": ""})),
        ("ack", json!({"messageId": 8, "timestamp": at, "commandId": "c-1", "ok": true})),
        ("ack", json!({"messageId": 8, "timestamp": at, "commandId": "c-1", "ok": "yes"})),
    ];
    for (name, payload) in cases {
        let by_schema = schema(name).is_valid(&payload);
        let by_parser = uplink::parse(kind(name).unwrap(), payload.to_string().as_bytes(), now).is_ok();
        assert_eq!(by_schema, by_parser, "{name} {payload}");
    }
}
