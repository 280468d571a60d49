//! Bytes that are not an envelope give an error, never a panic.

use proptest::prelude::*;
use wm_proto::{DecodeError, Envelope};

use crate::samples;

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = Envelope::from_bytes(&bytes);
    }

    #[test]
    fn corrupted_envelopes_never_panic(
        index in 0..samples::all().len(),
        position in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut bytes = Envelope::new("d", "a", samples::all().swap_remove(index)).to_bytes();
        let at = position.index(bytes.len());
        bytes[at] = byte;
        bytes.truncate(cut.index(bytes.len() + 1));
        let _ = Envelope::from_bytes(&bytes);
    }

    #[test]
    fn text_fields_round_trip(device_id in ".*", actor in ".*", correlation in ".*") {
        let sent = Envelope::new(device_id, actor, samples::all().remove(0))
            .with_correlation_id(correlation);
        prop_assert_eq!(Envelope::from_bytes(&sent.to_bytes()).ok(), Some(sent));
    }
}

#[test]
fn known_garbage_is_an_error() {
    let cases: &[&[u8]] = &[
        &[0xff],
        &[0x0a, 0x05, b'a'],
        &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
        b"{\"reading\": 42}",
    ];
    for bytes in cases {
        let err = Envelope::from_bytes(bytes).expect_err("garbage is rejected");
        assert!(matches!(err, DecodeError::Malformed(_) | DecodeError::UnknownPayload { .. }));
    }
}
