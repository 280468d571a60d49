//! Any topic and any payload of any kind: parsed or rejected with a reason,
//! never a panic; a rejection always says why.

#![no_main]

use chrono::{DateTime, Utc};
use libfuzzer_sys::fuzz_target;
use wm_uplink::{Kind, parse, topic};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, payload)) = data.split_first() else { return };
    let kind = Kind::ALL[usize::from(selector) % Kind::ALL.len()];
    let now = DateTime::<Utc>::from_timestamp(1_800_000_000, 0).expect("a valid time");
    if let Err(rejection) = parse(kind, payload, now) {
        assert!(!rejection.detail.is_empty(), "{kind:?}: a rejection without a detail");
    }
    let text = String::from_utf8_lossy(data);
    if let Ok((serial, kind)) = topic::parse(&text) {
        assert_eq!(topic::parse(&topic::uplink(serial.as_str(), kind)), Ok((serial, kind)), "{text}");
    }
});
