//! The `headers` column: each header as a big-endian u32 name length, the
//! name, a big-endian u32 value length, the value.

pub(super) fn encode(headers: &[(String, Vec<u8>)]) -> Vec<u8> {
    let size = headers.iter().map(|(n, v)| 8 + n.len() + v.len()).sum();
    let mut out = Vec::with_capacity(size);
    for (name, value) in headers {
        put(&mut out, name.as_bytes());
        put(&mut out, value);
    }
    out
}

pub(super) fn decode(mut bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, &'static str> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let name = take(&mut bytes)?;
        let name = String::from_utf8(name.to_vec()).map_err(|_| "a header name is not UTF-8")?;
        let value = take(&mut bytes)?.to_vec();
        out.push((name, value));
    }
    Ok(out)
}

fn put(out: &mut Vec<u8>, bytes: &[u8]) {
    // A header over 4 GiB cannot be appended in the first place (SQLite's
    // blob limit is 1 GB), so the length always fits.
    let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(bytes);
}

fn take<'a>(bytes: &mut &'a [u8]) -> Result<&'a [u8], &'static str> {
    let (len, rest) = bytes.split_first_chunk::<4>().ok_or("truncated header length")?;
    let len = usize::try_from(u32::from_be_bytes(*len)).map_err(|_| "header too long")?;
    if rest.len() < len {
        return Err("truncated header");
    }
    let (value, rest) = rest.split_at(len);
    *bytes = rest;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn empty_is_empty() {
        assert!(encode(&[]).is_empty());
        assert_eq!(decode(&[]), Ok(vec![]));
    }

    #[test]
    fn truncated_input_is_an_error() {
        let bytes = encode(&[("traceparent".into(), b"00-abc".to_vec())]);
        for cut in 1..bytes.len() {
            assert!(decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
    }

    proptest! {
        #[test]
        fn round_trips(headers in prop::collection::vec((".{0,12}", prop::collection::vec(any::<u8>(), 0..40)), 0..6)) {
            prop_assert_eq!(decode(&encode(&headers)), Ok(headers));
        }
    }
}
