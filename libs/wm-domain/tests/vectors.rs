//! Asserts the shared validation vectors (`tests/vectors/validation.json`),
//! which the web test suite also runs, against the Rust types.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::{Debug, Display};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use wm_domain::{BleAddress, DeviceId, GpsCoordinates, Imei, MacAddress, PhoneNumber, SerialNumber};

const VECTORS: &str = include_str!("vectors/validation.json");

/// What a type made of an input: its canonical JSON and display form, or the message.
type Outcome = Result<(Value, String), String>;

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    input: Value,
    valid: bool,
    canonical: Option<Value>,
    message: Option<String>,
    display: Option<String>,
}

/// Runs `input` through both edges, `parse` for strings and serde for any JSON,
/// checks that they agree, and words the error as the form in question does.
fn run<T, E>(input: &Value, parse: impl Fn(&str) -> Result<T, E>, wording: impl Fn(E) -> String) -> Outcome
where
    T: Serialize + DeserializeOwned + Display + PartialEq + Debug,
    E: Display,
{
    let from_serde = serde_json::from_value::<T>(input.clone()).map_err(|e| e.to_string());
    let outcome = match input.as_str() {
        Some(text) => match (parse(text), from_serde) {
            (Ok(parsed), Ok(read)) => {
                assert_eq!(parsed, read, "parse and serde disagree on {input}");
                Ok(parsed)
            }
            (Err(err), Err(read)) => {
                assert_eq!(err.to_string(), read, "parse and serde messages differ on {input}");
                Err(wording(err))
            }
            (parsed, read) => panic!(
                "parse gave {parsed:?}, serde gave {read:?} for {input}",
                parsed = parsed.map_err(|e| e.to_string())
            ),
        },
        None => from_serde,
    };
    outcome.map(|value| (serde_json::to_value(&value).unwrap(), value.to_string()))
}

fn check(kind: &str, input: &Value) -> Outcome {
    let same = |e: &dyn Display| e.to_string();
    match kind {
        "serialNumber" => run(input, SerialNumber::parse, |e| same(&e)),
        "meterSerialNumber" => run(input, SerialNumber::parse, |e| e.meter_message().to_owned()),
        "imei" => run(input, Imei::parse, |e| same(&e)),
        "phoneNumber" => run(input, PhoneNumber::parse, |e| same(&e)),
        "editPhoneNumber" => run(input, PhoneNumber::parse, |e| e.edit_message().to_owned()),
        "bleAddress" => run(input, BleAddress::parse, |e| same(&e)),
        "meterBleAddress" => run(input, BleAddress::parse, |e| e.meter_message().to_owned()),
        "macAddress" => run(input, MacAddress::parse, |e| same(&e)),
        "gpsCoordinates" => run(input, GpsCoordinates::parse, |e| same(&e)),
        "deviceId" => run(input, DeviceId::parse, |e| same(&e)),
        other => panic!("unknown vector kind {other}"),
    }
}

/// JSON equality where numbers compare by value (`12` equals `12.0`).
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(xs), Value::Array(ys)) => xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_json(x, y)),
        _ => a == b,
    }
}

fn assert_case(kind: &str, case: &Case) {
    let what = format!("{kind} {}", case.input);
    match (case.valid, check(kind, &case.input)) {
        (true, Ok((json, display))) => {
            let canonical = case.canonical.as_ref().unwrap_or_else(|| panic!("{what}: no canonical"));
            assert!(same_json(&json, canonical), "{what}: canonical {json}, expected {canonical}");
            match (&case.display, canonical.as_str()) {
                (Some(expected), _) => assert_eq!(&display, expected, "{what}: display"),
                (None, Some(expected)) => assert_eq!(display, expected, "{what}: display"),
                (None, None) => panic!("{what}: a non-string canonical needs a display"),
            }
            let again = check(kind, canonical).map(|(json, _)| json);
            assert!(
                matches!(&again, Ok(json) if same_json(json, canonical)),
                "{what}: canonical does not round-trip: {again:?}"
            );
            assert!(case.message.is_none(), "{what}: a valid case has no message");
        }
        (false, Err(message)) => {
            let expected = case.message.as_deref().unwrap_or_else(|| panic!("{what}: no message"));
            assert_eq!(message, expected, "{what}: message");
            assert!(case.canonical.is_none() && case.display.is_none(), "{what}: an invalid case has no canonical");
        }
        (true, Err(message)) => panic!("{what}: expected valid, got {message:?}"),
        (false, Ok((json, _))) => panic!("{what}: expected invalid, got {json}"),
    }
}

#[test]
fn every_vector_holds() {
    let vectors: serde_json::Map<String, Value> = serde_json::from_str(VECTORS).unwrap();
    let mut expected = [
        "serialNumber",
        "meterSerialNumber",
        "imei",
        "phoneNumber",
        "editPhoneNumber",
        "bleAddress",
        "meterBleAddress",
        "macAddress",
        "gpsCoordinates",
        "deviceId",
    ];
    expected.sort_unstable();
    let kinds: Vec<&str> = vectors.keys().map(String::as_str).collect();
    assert_eq!(kinds, expected, "the file holds exactly these kinds");
    for (kind, cases) in &vectors {
        let cases: Vec<Case> = serde_json::from_value(cases.clone()).unwrap();
        assert!((10..=20).contains(&cases.len()), "{kind}: {} cases", cases.len());
        assert!(cases.iter().any(|c| c.valid) && cases.iter().any(|c| !c.valid), "{kind}");
        for case in &cases {
            assert_case(kind, case);
        }
    }
}

#[test]
fn inputs_are_strings_except_gps_arrays_and_oid_objects() {
    let vectors: serde_json::Map<String, Value> = serde_json::from_str(VECTORS).unwrap();
    for (kind, cases) in &vectors {
        for case in cases.as_array().unwrap() {
            let input = &case["input"];
            let allowed = input.is_string()
                || (kind == "gpsCoordinates" && input.is_array())
                || (kind == "deviceId" && input.is_object());
            assert!(allowed, "{kind}: input {input}");
        }
    }
}
