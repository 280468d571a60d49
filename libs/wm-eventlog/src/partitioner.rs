//! Kafka's default partitioner, so a key lands on the same partition in the
//! embedded log and on a broker (librdkafka runs with
//! `partitioner=murmur2_random`, which is this function for non-empty keys).

/// Kafka's `Utils.murmur2` (seed `0x9747b28c`), as a signed 32-bit value like
/// the Java client returns.
pub fn murmur2(data: &[u8]) -> i32 {
    const SEED: u32 = 0x9747_b28c;
    const M: u32 = 0x5bd1_e995;
    const R: u32 = 24;

    // Kafka computes with Java's i32, truncating the length the same way.
    #[allow(clippy::cast_possible_truncation)]
    let mut h = SEED ^ (data.len() as u32);
    let mut chunks = data.chunks_exact(4);
    for chunk in &mut chunks {
        let mut k = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        k = k.wrapping_mul(M);
        k ^= k >> R;
        k = k.wrapping_mul(M);
        h = h.wrapping_mul(M);
        h ^= k;
    }
    let tail = chunks.remainder();
    if !tail.is_empty() {
        for (i, b) in tail.iter().enumerate().rev() {
            h ^= u32::from(*b) << (8 * i);
        }
        h = h.wrapping_mul(M);
    }
    h ^= h >> 13;
    h = h.wrapping_mul(M);
    h ^= h >> 15;
    i32::from_ne_bytes(h.to_ne_bytes())
}

/// The partition of `key` among `partitions`: `(murmur2(key) & 0x7fffffff) % n`,
/// as Kafka's Java client and librdkafka's `murmur2_random` compute it.
///
/// # Panics
/// When `partitions` is not positive.
pub fn partition_for(key: &str, partitions: i32) -> i32 {
    assert!(partitions > 0, "a topic has at least one partition");
    (murmur2(key.as_bytes()) & 0x7fff_ffff) % partitions
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vectors of Kafka's own `UtilsTest.testMurmur2`.
    #[test]
    fn matches_kafka_java_client() {
        let cases: &[(&[u8], i32)] = &[
            (b"21", -973_932_308),
            (b"foobar", -790_332_482),
            (b"a-little-bit-long-string", -985_981_536),
            (b"a-little-bit-longer-string", -1_486_304_829),
            (b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58_897_971),
            (b"abc", 479_470_107),
        ];
        for (data, expected) in cases {
            assert_eq!(murmur2(data), *expected, "{}", String::from_utf8_lossy(data));
        }
    }

    #[test]
    fn partition_is_stable_and_in_range() {
        for n in 1..=16 {
            for i in 0..200 {
                let key = format!("device-{i}");
                let p = partition_for(&key, n);
                assert!((0..n).contains(&p));
                assert_eq!(p, partition_for(&key, n));
            }
        }
    }

    #[test]
    fn keys_spread_over_partitions() {
        let mut seen = [0_u32; 8];
        for i in 0..800 {
            seen[usize::try_from(partition_for(&format!("meter-{i}"), 8)).unwrap_or(0)] += 1;
        }
        assert!(seen.iter().all(|&c| c > 50), "{seen:?}");
    }
}
