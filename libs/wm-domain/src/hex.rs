//! Hex digit helpers shared by ids and addresses.

/// The value of one ASCII hex digit, either case.
pub(crate) const fn nibble(digit: u8) -> Option<u8> {
    match digit {
        b'0'..=b'9' => Some(digit - b'0'),
        b'a'..=b'f' => Some(digit - b'a' + 10),
        b'A'..=b'F' => Some(digit - b'A' + 10),
        _ => None,
    }
}

/// The byte spelled by two ASCII hex digits, high digit first.
pub(crate) fn byte(high: u8, low: u8) -> Option<u8> {
    Some((nibble(high)? << 4) | nibble(low)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_cases_and_rejects_the_rest() {
        assert_eq!(byte(b'a', b'F'), Some(0xaf));
        assert_eq!(byte(b'0', b'9'), Some(0x09));
        assert_eq!(byte(b'g', b'0'), None);
        assert_eq!(byte(b'0', 0xEF), None);
    }
}
